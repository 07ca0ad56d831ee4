import type { Store } from '@licence/service';
import { createPool } from './create-pool.js';
import type { PostgresStoreOptions } from './create-pool.js';
import { openStoreOnPool } from './open-postgres-store.js';
import { createPostgresRateLimiter } from './postgres-rate-limiter.js';
import type { PostgresRateLimiter, RateLimitSettings } from './postgres-rate-limiter.js';

export interface OpenPostgresOptions extends PostgresStoreOptions {
  /**
   * The rate limit of docs/protocol.md#rate-limit (default 30 accepted requests per client in any
   * 60 s window).
   */
  readonly rateLimit?: RateLimitSettings;
}

/** The store and the shared rate limit on one pool: what a server process runs on. */
export interface PostgresBackend {
  readonly store: Store;
  readonly rateLimiter: PostgresRateLimiter;
  /** Waits for the limiter's background sweep, then ends the pool. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store (migrating the database, see `openPostgresStore`) and a rate limiter on the
 * SAME pool, so a process holds one set of connections and one set of timeouts. Rejects as
 * `openPostgresStore` does, leaving no connection open.
 */
export async function openPostgres(options: OpenPostgresOptions): Promise<PostgresBackend> {
  const pool = createPool(options);
  const store = await openStoreOnPool(options, pool);
  const rateLimiter = createPostgresRateLimiter({
    pool,
    ...(options.rateLimit?.limit === undefined ? {} : { limit: options.rateLimit.limit }),
    ...(options.rateLimit?.windowMs === undefined ? {} : { windowMs: options.rateLimit.windowMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  let closing: Promise<void> | undefined;
  return {
    store,
    rateLimiter,
    close: () => {
      closing ??= (async () => {
        await rateLimiter.close();
        await store.close();
      })();
      return closing;
    },
  };
}
