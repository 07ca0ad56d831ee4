import { createHash } from 'node:crypto';
import type { RandomBytes } from '@licence/core';

/**
 * The ids of webhooks (docs/protocol.md#webhooks): an endpoint `wh_...`, an event `msg_...` (the
 * `webhook-id` header, the same on every attempt and every endpoint, on which a receiver dedupes),
 * and a delivery `dlv_...`. 16 random bytes are 22 base64url characters: unique, and no secret.
 *
 * An event's id starts with its time (8 hex digits of Unix seconds, sortable until 2106) and this
 * process's count of the events of that second (6 hex digits), and a delivery's with its event's:
 * both are written on the verdict path (a new binding, a refusal), and an index of ids in that
 * order takes each new one at its end. With the second alone, the few thousand ids of a busy second
 * landed at random pages of that second's part of each index, and every commit wrote those pages
 * again: measured, that doubled the cost of an event and its delivery (apps/koa-server/README.md,
 * bench:webhooks). Several processes each append at their own end. A delivery's id is derived from its event and endpoint, so that
 * every store, which fans an event out inside its own transaction, names it the same way without
 * asking the service.
 */

export const WEBHOOK_ENDPOINT_PREFIX = 'wh_';
export const WEBHOOK_EVENT_PREFIX = 'msg_';
export const WEBHOOK_DELIVERY_PREFIX = 'dlv_';

const ID_BYTES = 16;
/** Of an event id, after its time and count: 12 random bytes, 96 bits, 16 base64url characters. */
const EVENT_RANDOM_BYTES = 12;
const COUNT_DIGITS = 6;
const COUNT_LIMIT = 16 ** COUNT_DIGITS;
/** Of a delivery id: the characters of SHA-256 (event, endpoint) after the event's part; 48 bits. */
const ENDPOINT_TAG_CHARACTERS = 8;

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

export function newWebhookEndpointId(random: RandomBytes): string {
  return WEBHOOK_ENDPOINT_PREFIX + base64url(random(ID_BYTES));
}

/** The last second an event id was made in, and how many this process made in it. */
const sequence = { second: -1, count: 0 };

/**
 * `msg_` + the event's time `at` (whole seconds) in 8 hex digits + this process's count of the event
 * ids of that second in 6 hex digits + 16 base64url random characters (12 bytes). The count only
 * orders; the random part makes the id unique across processes (and after a 16,777,216th event in
 * one second, when the count starts again).
 */
export function newWebhookEventId(random: RandomBytes, at: number): string {
  const second = Math.max(0, Math.floor(at));
  sequence.count = second === sequence.second ? (sequence.count + 1) % COUNT_LIMIT : 0;
  sequence.second = second;
  const time = second.toString(16).padStart(8, '0');
  const count = sequence.count.toString(16).padStart(COUNT_DIGITS, '0');
  return WEBHOOK_EVENT_PREFIX + time + count + base64url(random(EVENT_RANDOM_BYTES));
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
