import type { WebhookEventType } from './api-types.js';

/**
 * The events an endpoint may subscribe to, in the service's order (docs/protocol.md#webhooks,
 * WEBHOOK_EVENT_TYPES of @licence/service). A copy: the bundle takes nothing from the service but
 * types; `satisfies` refuses a name the service does not know, and the test checks the two lists
 * are the same.
 */
export const WEBHOOK_EVENTS = [
  'key.issued',
  'key.regenerated',
  'key.transferred',
  'key.revoked',
  'domain.bound',
  'verdict.refused',
] as const satisfies readonly WebhookEventType[];

/** The events chosen, in WEBHOOK_EVENTS order, each once, whatever order they were ticked in. */
export function orderedEvents(chosen: Iterable<WebhookEventType>): WebhookEventType[] {
  const set = new Set(chosen);
  return WEBHOOK_EVENTS.filter((event) => set.has(event));
}
