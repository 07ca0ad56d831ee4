import type { RandomBytes } from '@licence/core';
import { utcDay } from '../ports/index.js';
import type { NewWebhookEvent } from '../ports/index.js';
import { newWebhookEventId } from './ids.js';
import {
  type DomainBoundData,
  domainBoundData,
  type KeyIssuedData,
  keyIssuedData,
  type KeyReplacedData,
  keyReplacedData,
  type KeyRevokedData,
  keyRevokedData,
  type VerdictRefusedData,
  verdictRefusedData,
  type WebhookEventData,
  type WebhookEventType,
  webhookBody,
} from './payload.js';

/**
 * The events of docs/protocol.md#webhooks as the Store's outbox takes them (`NewWebhookEvent`): a
 * fresh `msg_` id, the product whose author's endpoints receive it, the change's time, and the
 * body built by payload.ts, whose data builders copy named fields only (a key appears as
 * its hint, except `data.cle` of a regeneration or transfer). The caller hands the event to the
 * very store call that makes the change, so both commit together or not at all.
 */

/** An event of `type` at `at` (whole seconds: the change's `now`, also the body's `timestamp`). */
function webhookEvent<T extends WebhookEventType>(
  random: RandomBytes,
  type: T,
  at: number,
  data: WebhookEventData[T],
  dedupe: string | null = null,
): NewWebhookEvent {
  return {
    id: newWebhookEventId(random, at),
    type,
    produit: data.produit,
    at,
    body: webhookBody(type, at, data),
    dedupe,
  };
}

export function keyIssuedEvent(random: RandomBytes, at: number, data: KeyIssuedData): NewWebhookEvent {
  return webhookEvent(random, 'key.issued', at, keyIssuedData(data));
}

/** `key.regenerated` or `key.transferred`: the old key's hint, the new key in full (`cle`). */
export function keyReplacedEvent(
  random: RandomBytes,
  type: 'key.regenerated' | 'key.transferred',
  at: number,
  data: KeyReplacedData,
): NewWebhookEvent {
  return webhookEvent(random, type, at, keyReplacedData(data));
}

export function keyRevokedEvent(random: RandomBytes, at: number, data: KeyRevokedData): NewWebhookEvent {
  return webhookEvent(random, 'key.revoked', at, keyRevokedData(data));
}

export function domainBoundEvent(random: RandomBytes, at: number, data: DomainBoundData): NewWebhookEvent {
  return webhookEvent(random, 'domain.bound', at, domainBoundData(data));
}

/**
 * The `dedupe` of a `verdict.refused` event (docs/protocol.md#webhooks): at most one per key, host
 * and UTC day, so a site that asks every minute tells the shop once a day, not 1,440 times. The
 * key's store id, never the key.
 */
export function verdictRefusedDedupe(keyId: string, hote: string, at: number): string {
  return `verdict.refused:${keyId}:${hote}:${utcDay(at)}`;
}

/** `verdict.refused` (`autre_domaine` only) of the key whose store id is `keyId`. */
export function verdictRefusedEvent(
  random: RandomBytes,
  at: number,
  keyId: string,
  data: VerdictRefusedData,
): NewWebhookEvent {
  const checked = verdictRefusedData(data);
  return webhookEvent(random, 'verdict.refused', at, checked, verdictRefusedDedupe(keyId, checked.hote, at));
}
