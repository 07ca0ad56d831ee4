import { createHash } from 'node:crypto';
import { typeName, ValidationError } from '@licence/core';

/**
 * When a failed delivery is tried again (docs/protocol.md#webhooks). The first delays follow the
 * schedule Standard Webhooks' reference service documents (5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h): a receiver that blinked is reached within seconds, one being redeployed within minutes,
 * one that is down for the night within hours. We then go on (10 h, 24 h, 24 h) so the whole
 * schedule spans at least 3 days, a long weekend of a shop's outage, before the delivery is marked
 * failed; a manual retry remains possible after that.
 */

const MINUTE = 60;
const HOUR = 3600;

/** The wait after the 1st, 2nd... failed attempt, in seconds; after the last one, the delivery has failed. */
export const WEBHOOK_RETRY_DELAYS: readonly number[] = [
  5,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

/** Attempts in all: the first and one per delay (11). */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS.length + 1;

/** The most jitter adds to a delay: a tenth of it. */
export const WEBHOOK_MAX_JITTER = 0.1;

export interface DelayOptions {
  /**
   * A fraction in [0, 1) (`webhookJitter(deliveryId)`): the delay grows by up to a tenth, so the
   * deliveries that failed together (a receiver's outage) do not all come back in the same second.
   * It only adds: the schedule never gets shorter than the table.
   */
  readonly jitter?: number;
}

/**
 * Seconds to wait after failed attempt number `attempt` (1 for the first), or null when that was
 * the last: the delivery is then marked failed.
 */
export function nextAttemptDelay(attempt: number, options: DelayOptions = {}): number | null {
  if (typeof attempt !== 'number' || !Number.isSafeInteger(attempt) || attempt < 1) {
    const got = typeof attempt === 'number' ? String(attempt) : typeName(attempt);
    throw new ValidationError('attempt', `attempt: expected a positive integer, got ${got}`);
  }
  const jitter = options.jitter ?? 0;
  if (typeof jitter !== 'number' || !(jitter >= 0 && jitter < 1)) {
    throw new ValidationError('jitter', `jitter: expected a number from 0 to below 1, got ${String(jitter)}`);
  }
  const delay = WEBHOOK_RETRY_DELAYS[attempt - 1];
  if (delay === undefined) return null;
  return delay + Math.floor(delay * WEBHOOK_MAX_JITTER * jitter);
}

/**
 * A delivery's own jitter, the same on every call (a restart does not reshuffle it) and spread
 * evenly across deliveries: the first 32 bits of SHA-256 of its id, as a fraction of 2^32.
 */
export function webhookJitter(deliveryId: string): number {
  return createHash('sha256').update(deliveryId, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}
