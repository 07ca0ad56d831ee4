import { formatQuand } from '@licence/core';
import { changedMeanwhile, callOrStoreUnavailable, requireAlive } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, reachKey } from './scope.js';
import type { RevokedKey, RevokeInput } from './types.js';
import { nowSeconds } from '../http/index.js';
import { keyRevokedEvent } from '../webhooks/index.js';

/**
 * Revokes a live key for good (docs/protocol.md#key-lifecycle): it then answers `revocation`. The
 * `key.revoked` event (docs/protocol.md#body: with the reason, or null) is stored with the change.
 */
export async function revokeKey(context: AdminContext, cle: string, input: RevokeInput = {}): Promise<RevokedKey> {
  const { store, clock, logger } = context;
  const reason = input.reason === undefined ? null : rules.text('reason', input.reason, rules.MAX_REASON_LENGTH);
  const stored = await reachKey(context, cle);
  const now = nowSeconds(clock);
  requireAlive(stored, now);
  const quand = formatQuand(now);
  const event = keyRevokedEvent(context.random, now, { hint: stored.hint, produit: stored.produit, quand, reason });
  const result = await callOrStoreUnavailable(() => store.revokeKey(stored.id, reason, now, [event]));
  if (result === 'not-active') throw changedMeanwhile(stored);
  // The reason is for the author (the store, the admin API, the event's body): never logged.
  logger.info({ action: 'key.revoke', hint: stored.hint }, 'key revoked');
  return { hint: stored.hint, status: 'revocation', quand };
}
