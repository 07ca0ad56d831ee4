import { adminError } from './errors.js';
import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, reachWebhook } from './scope.js';

/**
 * `DELETE /admin/webhooks/:id` (docs/protocol.md#webhooks): the endpoint goes with its secrets and
 * its deliveries; nothing more is sent to it, pending deliveries included.
 */
export async function removeWebhook(context: AdminContext, id: string): Promise<void> {
  const endpoint = await reachWebhook(context, id);
  const deleted = await callOrStoreUnavailable(() => context.store.deleteWebhookEndpoint(endpoint.id));
  // Another request deleted it meanwhile: the 404 a second DELETE gets.
  if (!deleted) throw adminError('WEBHOOK_NOT_FOUND', endpoint.id);
  context.logger.info({ action: 'webhook.remove', webhook: endpoint.id }, 'webhook endpoint removed');
}
