import { slidingWindow } from '@licence/service';
import type { Logger, RateLimiter } from '@licence/service';
import { limiterPool } from './limiter-pool.js';
import type { LimiterPoolOptions } from './limiter-pool.js';
import { rateLimitHits } from './rate-limit-hits.js';
import { windowSweeper } from './rate-limit-sweep.js';

/**
 * The rate limit's settings (docs/protocol.md#rate-limit), `limit` and `windowMs`, each optional:
 * what `slidingWindow` of @licence/service checks and completes, as for the memory rate limiter.
 */
export type RateLimitSettings = Parameters<typeof slidingWindow>[0];

export type PostgresRateLimiterOptions = RateLimitSettings & {
  /** The background sweep's failures are logged here (never a client address). */
  readonly logger?: Logger;
} & LimiterPoolOptions;

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
 * client (migration step 2).
 *
 * The hits of one event-loop turn are ONE call of `rate_limit_hit_batch` (one round trip, its own
 * transaction), which serialises the hits of one client across processes on its row lock. Rows of
 * clients that never come back are deleted by a sweep that `hit` starts in the background at
 * most once per window per process; its failure is logged, never a hit's failure. A database
 * that is down makes `hit` reject: the service answers a 5xx problem, never a verdict
 * (docs/protocol.md#errors).
 */
export function createPostgresRateLimiter(options: PostgresRateLimiterOptions): PostgresRateLimiter {
  const window = slidingWindow(options);
  const { logger } = options;
  const backing = limiterPool(options, logger);
  const hit = rateLimitHits(backing.pool, window);
  const sweeper = windowSweeper(backing, window.windowMs, logger);
  let closed = false;

  return {
    async hit(client, nowMs) {
      if (closed) throw new Error('the PostgreSQL rate limiter is closed');
      await backing.ready();
      const answer = await hit(client, nowMs);
      sweeper.startIfDue(nowMs);
      return answer;
    },
    sweep: (nowMs) => sweeper.sweep(nowMs),
    settled: () => sweeper.settled(),
    async close() {
      if (closed) return;
      closed = true;
      await sweeper.settled();
      if (backing.owned) await backing.pool.end();
    },
  };
}
