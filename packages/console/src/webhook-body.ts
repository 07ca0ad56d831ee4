import type { WebhookBody, WebhookEventType } from './api-types.js';
import { orderedEvents } from './webhook-events.js';

/** The new-endpoint form as typed. `author`: the operator's choice, '' for every author. */
export interface WebhookForm {
  readonly url: string;
  readonly events: ReadonlySet<WebhookEventType>;
  readonly author: string;
}

export type WebhookBodyCheck =
  | { readonly ok: true; readonly body: WebhookBody }
  | { readonly ok: false; readonly field: 'url' | 'events' };

/**
 * The body of `POST admin/webhooks` (docs/protocol.md#webhooks), or the field the console refuses
 * before asking: an empty URL, no event. The URL's own rules (https, no private address...) are the
 * service's, whose 400 says which one failed. An author token never sends `author` (it is its own);
 * the operator sends it unless it chose every author.
 */
export function webhookBody(form: WebhookForm, role: 'operator' | 'author'): WebhookBodyCheck {
  const url = form.url.trim();
  if (url === '') return { ok: false, field: 'url' };
  const events = orderedEvents(form.events);
  if (events.length === 0) return { ok: false, field: 'events' };
  const author = form.author.trim();
  if (role === 'author' || author === '') return { ok: true, body: { url, events } };
  return { ok: true, body: { url, events, author } };
}
