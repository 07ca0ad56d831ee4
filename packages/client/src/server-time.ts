import type { SignedEnvelope } from '@licence/core';

/**
 * The time to judge a cached verdict by, in seconds: the client's clock moved onto the service's.
 *
 * docs/protocol.md#states counts freshness (`revalider`) and grace (`emis` + `sursis`) on the
 * service's clock, which is the only one that signed anything. A client whose clock is off by a
 * year would, read literally, keep a verdict fresh for a year (clock behind) or find every verdict
 * stale the moment it arrives and call on every `valide()` (clock ahead). So the client stores
 * `recu`, its own clock when the envelope arrived, beside it, and measures time elapsed since then
 * on its own clock: `emis + (localNow - recu)`. A skewed but steady clock then gives exactly the
 * intervals of those rules.
 *
 * Without a usable `recu` (none stored, not a safe integer, or later than the clock: the clock
 * went back, or the file was edited) the client's clock is used as it is, which is the
 * literal rule and what `client-states.json` pins.
 */
export function serverTime(localNow: number, envelope: SignedEnvelope | null, recu: unknown): number {
  if (envelope === null || !isReceipt(recu) || recu > localNow) return localNow;
  const time = envelope.donnees.emis + (localNow - recu);
  return Number.isSafeInteger(time) ? time : localNow;
}

/** A receipt time as stored: a non-negative safe integer of seconds. */
export function isReceipt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
