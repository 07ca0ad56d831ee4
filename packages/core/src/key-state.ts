import type { KeyStatus } from './key-record.js';

/** A key's state: its stored status, or `expiree` for a trial past its end (docs/protocol.md#verdict). */
export type KeyState = KeyStatus | 'expiree';

/**
 * Rule 4 of docs/protocol.md#verdict. On the boundary, we decide that a trial ending at T runs
 * while now < T: `expiresAt` is the first second at which it no longer runs.
 */
export function trialEnded(expiresAt: number | null, now: number): expiresAt is number {
  return expiresAt !== null && now >= expiresAt;
}

/**
 * A key's state at `now`, as rules 3 and 4 of decideVerdict read it: a replaced or revoked key
 * keeps its status, a trial past its end is `expiree` though still stored `active`. The admin
 * views, the buyer page and the service's "is it alive" checks read a key by it.
 */
export function keyState(
  key: { readonly status: KeyStatus; readonly expiresAt: number | null },
  now: number,
): KeyState {
  if (key.status !== 'active') return key.status;
  return trialEnded(key.expiresAt, now) ? 'expiree' : 'active';
}
