import { adminError } from './errors.js';
import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, reachWebhook, shownId } from './scope.js';
import type { WebhookDeliveriesView, WebhookDeliveryView } from './types.js';
import { webhookDeliveryView } from './webhook-views.js';
import { nowSeconds } from '../http/index.js';
import { WEBHOOK_DELIVERY_PREFIX } from '../webhooks/index.js';

/** How many deliveries the log shows (docs/protocol.md#webhooks): the last 100, newest first. */
export const WEBHOOK_DELIVERIES_SHOWN = 100;

/** `GET /admin/webhooks/:id/deliveries`: the delivery log, with each delivery's attempts. */
export async function webhookDeliveries(context: AdminContext, id: string): Promise<WebhookDeliveriesView> {
  const endpoint = await reachWebhook(context, id);
  const deliveries = await callOrStoreUnavailable(() =>
    context.store.listWebhookDeliveries(endpoint.id, WEBHOOK_DELIVERIES_SHOWN),
  );
  return { webhook: endpoint.id, deliveries: deliveries.map(webhookDeliveryView) };
}

/**
 * `POST /admin/webhooks/:id/deliveries/:deliveryId/retry` (docs/protocol.md#webhooks): the delivery
 * is pending and due now, whatever its status (a failed one after the shop fixed its receiver, or a
 * delivered one it lost); its attempts are kept. The deliverer sends it on its next round.
 */
export async function retryWebhookDelivery(
  context: AdminContext,
  id: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await reachWebhook(context, id);
  const now = nowSeconds(context.clock);
  const delivery = await callOrStoreUnavailable(() => context.store.retryWebhookDelivery(endpoint.id, deliveryId, now));
  if (delivery === null) {
    throw adminError('DELIVERY_NOT_FOUND', endpoint.id, shownId(WEBHOOK_DELIVERY_PREFIX, deliveryId));
  }
  context.logger.info(
    { action: 'webhook.retry', webhook: endpoint.id, delivery: delivery.id, type: delivery.type },
    'webhook delivery due again',
  );
  return webhookDeliveryView(delivery);
}
