import type pg from 'pg';
import type { Logger } from '@licence/service';
import { createPool, describeDatabase } from './create-pool.js';
import type { PostgresPoolOptions } from './create-pool.js';
import { migratePool } from './migrate.js';

export type LimiterPoolOptions =
  | {
      /** A pool already on a migrated database (the store's: see `openPostgres`). Not ended by `close`. */
      readonly pool: pg.Pool;
    }
  | {
      /** Its own pool on this database, migrated on the first hit; ended by `close`. */
      readonly connectionString: string;
      readonly poolOptions?: PostgresPoolOptions;
    };

/** The rate limiter's pool: the store's, or its own, whose schema `ready` brings up. */
export interface LimiterPool {
  readonly pool: pg.Pool;
  /** Whether the limiter made the pool, and so ends it on close. */
  readonly owned: boolean;
  /** Resolves once the schema is migrated (at once on the store's pool). */
  readonly ready: () => Promise<void>;
}

export function limiterPool(options: LimiterPoolOptions, logger: Logger | undefined): LimiterPool {
  if (!('connectionString' in options)) {
    return { pool: options.pool, owned: false, ready: () => Promise.resolve() };
  }
  const pool = createPool({
    connectionString: options.connectionString,
    ...(logger === undefined ? {} : { logger }),
    ...(options.poolOptions === undefined ? {} : { pool: options.poolOptions }),
  });
  const database = describeDatabase(options.connectionString);
  // Own pool: the schema is brought up once, before the first hit; a failure is retried next time.
  let ready: Promise<void> | undefined;
  return {
    pool,
    owned: true,
    ready: () => {
      ready ??= migratePool(pool, database, logger).catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      return ready;
    },
  };
}
