import { createHash } from 'node:crypto';
import type { RandomBytes } from '@licence/core';

/**
 * The ids of webhooks (docs/protocol.md#webhooks): an endpoint `wh_...`, an event `msg_...` (the
 * `webhook-id` header, the same on every attempt and every endpoint, on which a receiver dedupes),
 * and a delivery `dlv_...`. 16 random bytes are 22 base64url characters: unique, and no secret.
 *
 * An event's id starts with its time (8 hex digits of Unix seconds, sortable until 2106), and a
 * delivery's with its event's: both are written on the verdict path (a new binding, a refusal), and
 * an index of ids in time order takes each new one at its end, where a random id would dirty a
 * random page of it per write. A delivery's id is derived from its event and endpoint, so that
 * every store, which fans an event out inside its own transaction, names it the same way without
 * asking the service.
 */

export const WEBHOOK_ENDPOINT_PREFIX = 'wh_';
export const WEBHOOK_EVENT_PREFIX = 'msg_';
export const WEBHOOK_DELIVERY_PREFIX = 'dlv_';

const ID_BYTES = 16;
/** Of a delivery id: the characters of SHA-256 (event, endpoint) after the event's part; 48 bits. */
const ENDPOINT_TAG_CHARACTERS = 8;

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

export function newWebhookEndpointId(random: RandomBytes): string {
  return WEBHOOK_ENDPOINT_PREFIX + base64url(random(ID_BYTES));
}

/** `msg_` + the event's time `at` (whole seconds) in 8 hex digits + 22 base64url random characters. */
export function newWebhookEventId(random: RandomBytes, at: number): string {
  const time = Math.max(0, Math.floor(at)).toString(16).padStart(8, '0');
  return WEBHOOK_EVENT_PREFIX + time + base64url(random(ID_BYTES));
}

/**
 * `dlv_` + the event's id without its `msg_` + `_` + the first 8 base64url characters of SHA-256 of
 * `eventId`, a newline and `endpointId`: in event order, and distinct per endpoint of an event.
 */
export function webhookDeliveryId(eventId: string, endpointId: string): string {
  const event = eventId.startsWith(WEBHOOK_EVENT_PREFIX) ? eventId.slice(WEBHOOK_EVENT_PREFIX.length) : eventId;
  const digest = createHash('sha256').update(`${eventId}\n${endpointId}`, 'utf8').digest();
  return `${WEBHOOK_DELIVERY_PREFIX}${event}_${base64url(digest).slice(0, ENDPOINT_TAG_CHARACTERS)}`;
}
