import { MOTIFS } from '@licence/core';
import type { VerdictOutcome } from './store-port.js';

/**
 * The activity's day and outcome (docs/protocol.md#activity), in one place for the service and
 * every store: the UTC day a verdict counts on, and the outcomes a stored count may hold.
 */

/** Seconds in a UTC day. */
export const DAY_SECONDS = 86_400;

/**
 * The UTC day of a time in whole seconds: whole days since the epoch, as ports.ts `ActivityCount`
 * keys them. Computed in JavaScript, never in SQL, whose integer division rounds toward zero.
 */
export function utcDay(at: number): number {
  return Math.floor(at / DAY_SECONDS);
}

const OUTCOMES: readonly string[] = ['ok', 'essai', ...MOTIFS];

function isVerdictOutcome(value: string): value is VerdictOutcome {
  return OUTCOMES.includes(value);
}

/**
 * An outcome as a store's row holds it. Only `logRequest` writes it, from a typed verdict; any
 * other value means a database edited by hand or by a newer build, refused rather than shown as a
 * made-up count (as stored-key-fields.ts refuses a key's kind). `where` names the row.
 */
export function storedOutcome(where: string, value: string): VerdictOutcome {
  if (!isVerdictOutcome(value)) {
    throw new TypeError(`${where}: expected one of ${OUTCOMES.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}
