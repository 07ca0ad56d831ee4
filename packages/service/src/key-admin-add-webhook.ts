import { adminError } from './admin-errors.js';
import { fromStore } from './key-admin-keys.js';
import * as rules from './key-admin-rules.js';
import { type AdminContext, webhookAuthor } from './key-admin-scope.js';
import type { NewWebhookView, WebhookInput } from './key-admin-types.js';
import { urlOrigin, webhookView } from './key-admin-webhook-views.js';
import { nowSeconds } from './service-context.js';
import { newWebhookEndpointId } from './webhook-ids.js';
import { newWebhookSecret } from './webhook-secret.js';

/**
 * `POST /admin/webhooks` (docs/protocol.md#webhooks): a shop's endpoint, for one author's events (an
 * author token's own, or the one the operator names) or every author's (the operator, no author).
 * The secret is in this answer only; the log names the endpoint's id and the URL's origin, never
 * the secret nor the URL's path and query, where a shop may keep a token.
 */
export async function addWebhook(context: AdminContext, input: WebhookInput): Promise<NewWebhookView> {
  const { store, clock, random, logger } = context;
  const url = rules.webhookUrl(input.url, context.webhookAllowPrivate === true);
  const events = rules.webhookEvents(input.events);
  const given = input.author === undefined ? undefined : rules.text('author', input.author);
  const author = webhookAuthor(context.principal, given);
  const record = { id: newWebhookEndpointId(random), author, url, events, createdAt: nowSeconds(clock) };
  const secret = newWebhookSecret(random);
  const result = await fromStore(() => store.addWebhookEndpoint({ ...record, secret }));
  // Only a named author can be missing: `author` null is every author's.
  if (result.result === 'no-author') throw adminError('AUTHOR_NOT_FOUND', author ?? '');
  logger.info(
    { action: 'webhook.add', webhook: record.id, author, origin: urlOrigin(url), events },
    'webhook endpoint added',
  );
  return { ...webhookView(record), secret };
}
