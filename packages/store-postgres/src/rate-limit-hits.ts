import type pg from 'pg';
import { retryAfterSeconds } from '@licence/service';
import type { RateLimiter } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';

/** One hit's answer from rate_limit_hit_batch; `oldest` is int8, so a decimal string. */
interface HitRow {
  readonly allowed: boolean;
  readonly oldest: string | null;
}

/**
 * The hits of every request of one event-loop turn in ONE statement (batch-queue.ts; migration
 * step 2, rate_limit_hit_batch: hit by hit, in arrival order for each client), named so it is
 * planned once per connection. Resolves each hit's answer (docs/protocol.md#rate-limit).
 */
export function rateLimitHits(
  pool: pg.Pool,
  window: { readonly limit: number; readonly windowMs: number },
): RateLimiter['hit'] {
  const { limit, windowMs } = window;
  const hits = createBatchQueue<{ readonly client: string; readonly nowMs: number }, HitRow>(async (batch) => {
    const result = await pool.query<HitRow & { ord: string }>({
      name: 'licence_rate_limit_hits',
      text: 'SELECT ord, allowed, oldest FROM rate_limit_hit_batch($1::text[], $2::bigint[], $3, $4)',
      values: [batch.map((hit) => hit.client), batch.map((hit) => hit.nowMs), windowMs, limit],
    });
    const rows: HitRow[] = [];
    for (const row of result.rows) rows[Number(row.ord) - 1] = { allowed: row.allowed, oldest: row.oldest };
    return batch.map((_, index) => {
      const row = rows[index];
      if (row === undefined) throw new Error('rate_limit_hit_batch answered no row for a hit');
      return row;
    });
  }, MAX_BATCH);

  return async (client, nowMs) => {
    const row = await hits.push({ client, nowMs });
    if (row.allowed) return { allowed: true, retryAfter: 0 };
    const oldest = row.oldest === null ? nowMs : Number(row.oldest);
    return { allowed: false, retryAfter: retryAfterSeconds(oldest, windowMs, nowMs) };
  };
}
