import { utcDay } from '@licence/service';
import type { MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

/**
 * Adds one to the count of the entry's product, UTC day and outcome (docs/protocol.md#activity); a
 * verdict with no product (an unknown key) counts nowhere. Runs inside `logRequest`'s work, so the
 * line and its count change together.
 */
export function countVerdict(state: MemoryState, entry: Store.RequestLogEntry): void {
  if (entry.produit === null) return;
  let days = state.activity.get(entry.produit);
  if (days === undefined) {
    days = new Map();
    state.activity.set(entry.produit, days);
  }
  const day = utcDay(entry.at);
  let outcomes = days.get(day);
  if (outcomes === undefined) {
    outcomes = new Map();
    days.set(day, outcomes);
  }
  outcomes.set(entry.outcome, (outcomes.get(entry.outcome) ?? 0) + 1);
}

/** Deletes the counts of the days before `firstKeptDay` (the purge, docs/protocol.md#privacy). */
export function purgeActivity(state: MemoryState, firstKeptDay: number): void {
  for (const [produit, days] of state.activity) {
    for (const day of days.keys()) {
      if (day < firstKeptDay) days.delete(day);
    }
    if (days.size === 0) state.activity.delete(produit);
  }
}

/** The memory store's activity read: the kept counts of the days asked, both ends included. */
export function memoryActivity(state: MemoryState, run: MemoryRun): Pick<Store, 'activity'> {
  return {
    activity: (productId, fromDay, toDay) =>
      run(() => {
        const counts: Store.ActivityCount[] = [];
        for (const [day, outcomes] of state.activity.get(productId) ?? []) {
          if (day < fromDay || day > toDay) continue;
          for (const [outcome, count] of outcomes) counts.push(Object.freeze({ day, outcome, count }));
        }
        return counts;
      }),
  };
}
