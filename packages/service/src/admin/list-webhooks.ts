import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, authorFilter } from './scope.js';
import type { WebhookView } from './types.js';
import { webhookView } from './webhook-views.js';

/**
 * `GET /admin/webhooks` (docs/protocol.md#webhooks): the operator sees every endpoint, an author
 * token its author's only (not those of every author, which are the operator's); oldest first.
 */
export async function listWebhooks(context: AdminContext): Promise<{ readonly webhooks: readonly WebhookView[] }> {
  const endpoints = await callOrStoreUnavailable(() =>
    context.store.listWebhookEndpoints(authorFilter(context.principal)),
  );
  return { webhooks: endpoints.map(webhookView) };
}
