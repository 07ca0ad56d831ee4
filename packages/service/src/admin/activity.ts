import { formatQuand } from '@licence/core';
import { DAY_SECONDS, utcDay } from '../ports/index.js';
import { callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, reachProduct } from './scope.js';
import type { ActivityDay, ActivityView } from './types.js';
import type { ActivityCount } from '../ports/index.js';
import { nowSeconds } from '../http/index.js';

/**
 * `GET /admin/products/:id/activity?days=N` (docs/protocol.md#activity): the product's verdicts per
 * UTC day, from the store's per-day counts, for the `days` days that end today (by the clock),
 * oldest first; a day without verdicts is there with zeros, so a chart needs no gap filling.
 */
export async function activity(context: AdminContext, rawProductId: string, days?: number): Promise<ActivityView> {
  const productId = rules.slug('id', rawProductId);
  const span = rules.days(days);
  await reachProduct(context, productId);
  const today = utcDay(nowSeconds(context.clock));
  const from = today - (span - 1);
  const counts = await callOrStoreUnavailable(() => context.store.activity(productId, from, today));
  return { product: productId, days: dayViews(from, today, counts) };
}

/** Every day from `from` to `to`, with its counts: `ok`, `essai`, and the refusals by motif. */
export function dayViews(from: number, to: number, counts: readonly ActivityCount[]): ActivityDay[] {
  const byDay = new Map<number, ActivityCount[]>();
  for (const count of counts) byDay.set(count.day, [...(byDay.get(count.day) ?? []), count]);
  const days: ActivityDay[] = [];
  for (let day = from; day <= to; day += 1) {
    let ok = 0;
    let essai = 0;
    const refusals = new Map<string, number>();
    for (const { outcome, count } of byDay.get(day) ?? []) {
      if (outcome === 'ok') ok += count;
      else if (outcome === 'essai') essai += count;
      else refusals.set(outcome, (refusals.get(outcome) ?? 0) + count);
    }
    const motifs = [...refusals.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    days.push({ date: formatQuand(day * DAY_SECONDS).slice(0, 10), ok, essai, refusals: Object.fromEntries(motifs) });
  }
  return days;
}
