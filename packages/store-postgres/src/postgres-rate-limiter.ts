import type pg from 'pg';
import type { Logger, RateLimiter } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import { createPool, describeDatabase, describeError } from './create-pool.js';
import type { PostgresPoolOptions } from './create-pool.js';
import { migrate } from './migrations.js';

/** One hit's answer from rate_limit_hit_batch; `oldest` is int8, so a decimal string. */
interface HitRow {
  readonly allowed: boolean;
  readonly oldest: string | null;
}

interface RateLimitOptions {
  /** Accepted requests per client in any window (docs/protocol.md#rate-limit: 30). */
  readonly limit?: number;
  /** The sliding window in milliseconds (docs/protocol.md#rate-limit: 60 s). */
  readonly windowMs?: number;
  /** The background sweep's failures are logged here (never a client address). */
  readonly logger?: Logger;
}

export type PostgresRateLimiterOptions = RateLimitOptions &
  (
    | {
        /** A pool already on a migrated database (the store's: see `openPostgres`). Not ended by `close`. */
        readonly pool: pg.Pool;
      }
    | {
        /** Its own pool on this database, migrated on the first hit; ended by `close`. */
        readonly connectionString: string;
        readonly poolOptions?: PostgresPoolOptions;
      }
  );

export interface PostgresRateLimiter extends RateLimiter {
  /** Deletes every client's hits that left the window at `nowMs`; resolves how many. */
  sweep(nowMs: number): Promise<number>;
  /** Resolves once the background sweep started by `hit` (if any) has finished. */
  settled(): Promise<void>;
  /** Ends the limiter's own pool (a shared pool is the store's to end). Idempotent. */
  close(): Promise<void>;
}

/**
 * The rate limit (docs/protocol.md#rate-limit) shared by every process on one database: the same
 * sliding window LOG as `createMemoryRateLimiter` of @licence/service (a new client may send
 * `limit` at once; a refused request is not counted; `retryAfter` is the whole seconds until the
 * oldest counted request leaves the window, at least 1), kept in `rate_limit_windows`, one row per
 * client (migration step 3).
 *
 * The hits of one event-loop turn are ONE call of `rate_limit_hit_batch` (one round trip, its own
 * transaction), which serialises the hits of one client across processes on its row lock. Rows of
 * clients that never come back are deleted by a sweep that `hit` starts in the background at
 * most once per window per process; its failure is logged, never a hit's failure. A database
 * that is down makes `hit` reject: the service answers a 5xx problem, never a verdict
 * (docs/protocol.md#errors).
 */
export function createPostgresRateLimiter(options: PostgresRateLimiterOptions): PostgresRateLimiter {
  const limit = options.limit ?? 30;
  const windowMs = options.windowMs ?? 60_000;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit: expected an integer >= 1, got ${String(limit)}`);
  if (!Number.isInteger(windowMs) || windowMs < 1)
    throw new RangeError(`windowMs: expected an integer >= 1, got ${String(windowMs)}`);
  const { logger } = options;

  const owned = 'connectionString' in options;
  const pool: pg.Pool =
    'connectionString' in options
      ? createPool({
          connectionString: options.connectionString,
          ...(logger === undefined ? {} : { logger }),
          ...(options.poolOptions === undefined ? {} : { pool: options.poolOptions }),
        })
      : options.pool;
  const database = 'connectionString' in options ? describeDatabase(options.connectionString) : 'the store database';

  /** Own pool: the schema is brought up once, before the first hit; a failure is retried next time. */
  let ready: Promise<void> | undefined = owned ? undefined : Promise.resolve();
  const schemaReady = (): Promise<void> => {
    ready ??= (async () => {
      const client = await pool.connect();
      try {
        await migrate(client, database, logger);
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  // The hits of every request of one event-loop turn go in ONE statement (batch-queue.ts;
  // migration step 3, rate_limit_hit_batch: hit by hit, in arrival order for each client), named
  // so it is planned once per connection.
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

  let lastSweep = -Infinity;
  let sweeping: Promise<void> = Promise.resolve();
  let closed = false;

  async function sweep(nowMs: number): Promise<number> {
    await schemaReady();
    // A client whose latest counted hit left the window has nothing left to count.
    const result = await pool.query('DELETE FROM rate_limit_windows WHERE hits[cardinality(hits)] + $2 <= $1', [
      nowMs,
      windowMs,
    ]);
    return result.rowCount ?? 0;
  }

  return {
    async hit(client, nowMs) {
      if (closed) throw new Error('the PostgreSQL rate limiter is closed');
      await schemaReady();
      const row = await hits.push({ client, nowMs });
      if (nowMs - lastSweep >= windowMs) {
        lastSweep = nowMs;
        sweeping = sweep(nowMs).then(
          (deleted) => logger?.debug({ deleted }, 'postgres rate limiter: swept old hits'),
          (error: unknown) => {
            if (logger === undefined) console.warn(`postgres rate limiter: sweep failed: ${describeError(error)}`);
            else logger.warn({ err: describeError(error) }, 'postgres rate limiter: sweep failed');
          },
        );
      }
      if (row.allowed) return { allowed: true, retryAfter: 0 };
      const oldest = row.oldest === null ? nowMs : Number(row.oldest);
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000)) };
    },
    sweep,
    settled: () => sweeping,
    async close() {
      if (closed) return;
      closed = true;
      await sweeping;
      if (owned) await pool.end();
    },
  };
}
