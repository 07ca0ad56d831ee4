import { adminError } from './errors.js';
import { callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, webhookAuthor } from './scope.js';
import type { NewWebhookView, WebhookInput } from './types.js';
import { urlOrigin, webhookView } from './webhook-views.js';
import { nowSeconds } from '../http/index.js';
import { newWebhookEndpointId } from '../webhooks/index.js';
import { newWebhookSecret } from '../webhooks/index.js';

/**
 * `POST /admin/webhooks` (docs/protocol.md#webhooks): a shop's endpoint, for one author's events (an
 * author token's own, or the one the operator names) or every author's (the operator, no author).
 * The secret is in this answer only; the log names the endpoint's id and the URL's origin, never
 * the secret nor the URL's path and query, where a shop may keep a token. An author has at most
 * `webhooksPerAuthor` endpoints (LICENCE_WEBHOOKS_PER_AUTHOR, default 10): a 409 beyond.
 */
export async function addWebhook(context: AdminContext, input: WebhookInput): Promise<NewWebhookView> {
  const { store, clock, random, logger } = context;
  const url = rules.webhookUrl(input.url, context.webhookAllowPrivate === true);
  const events = rules.webhookEvents(input.events);
  const given = input.author === undefined ? undefined : rules.text('author', input.author);
  const author = webhookAuthor(context.principal, given);
  const record = { id: newWebhookEndpointId(random), author, url, events, createdAt: nowSeconds(clock) };
  const secret = newWebhookSecret(random);
  // docs/protocol.md#endpoints: an author's endpoints are counted, whoever adds them; the store
  // counts and inserts in one step, so concurrent adds never pass the quota.
  const limit = context.webhooksPerAuthor;
  const result = await callOrStoreUnavailable(() => store.addWebhookEndpoint({ ...record, secret }, limit));
  // Only a named author can be missing or full: `author` null is every author's, and not counted.
  if (result.result === 'no-author') throw adminError('AUTHOR_NOT_FOUND', author ?? '');
  if (result.result === 'too-many') throw adminError('TOO_MANY_WEBHOOKS', author ?? '', limit);
  logger.info(
    { action: 'webhook.add', webhook: record.id, author, origin: urlOrigin(url), events },
    'webhook endpoint added',
  );
  return { ...webhookView(record), secret };
}
