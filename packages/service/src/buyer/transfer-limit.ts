import { DAY_SECONDS } from '../ports/index.js';
import type { Store } from '../ports/index.js';
import { callOr503 } from '../http/index.js';

/**
 * How many transfers a buyer may still make (docs/protocol.md#buyer-links): at most
 * LICENCE_BUYER_TRANSFERS_PER_30_DAYS per key lineage (the key and the keys that replaced it) in
 * any 30 days, counted by the store (`countBuyerTransfers`: the lineage's keys a buyer's transfer
 * ended since a time). The operator's and the author's transfers do not count.
 */

export const BUYER_WINDOW_DAYS = 30;
export const BUYER_WINDOW_SECONDS = BUYER_WINDOW_DAYS * DAY_SECONDS;

/** The transfers left to `lineage` at `now`: `limit` minus those of the last 30 days, at least 0. */
export async function buyerTransfersLeft(store: Store, lineage: string, limit: number, now: number): Promise<number> {
  if (limit === 0) return 0;
  const made = await callOr503(() => store.countBuyerTransfers(lineage, now - BUYER_WINDOW_SECONDS));
  return Math.max(0, limit - made);
}

/**
 * When no transfer is left: the whole days until one is again (for `Retry-After`), an upper bound
 * found by bisection over the day the window starts (at most 5 counts: the store counts, it does
 * not list). Null when transfers are off (`limit` 0): waiting changes nothing.
 */
export async function daysUntilTransfer(
  store: Store,
  lineage: string,
  limit: number,
  now: number,
): Promise<number | null> {
  if (limit === 0) return null;
  const madeSince = (days: number) =>
    callOr503(() => store.countBuyerTransfers(lineage, now - BUYER_WINDOW_SECONDS + days * DAY_SECONDS));
  // In `days` days, the window starts `days` days later: the fewest days whose window holds
  // fewer than `limit` of the transfers made so far.
  let low = 1;
  let high = BUYER_WINDOW_DAYS;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if ((await madeSince(middle)) < limit) high = middle;
    else low = middle + 1;
  }
  return low;
}
