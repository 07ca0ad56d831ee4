import type pg from 'pg';
import { describeError, errorMessage } from '@licence/core';
import { SchemaVersionError } from '@licence/service';
import type { Logger, Store } from '@licence/service';
import { activityCounts } from './activity.js';
import { authorTokens } from './author-tokens.js';
import { authorRecords } from './authors.js';
import { createPool, describeDatabase } from './create-pool.js';
import type { PostgresStoreOptions } from './create-pool.js';
import { domainBindings } from './domain-bindings.js';
import { keyReads } from './key-reads.js';
import { keyWrites } from './key-writes.js';
import { migratePool } from './migrate.js';
import { productRecords } from './products.js';
import { requestLogPurge } from './purge-request-log.js';
import { poolQuery } from './query.js';
import { requestLog } from './request-log.js';
import { poolTransaction } from './transaction.js';
import { webhookClaims } from './webhook-claim.js';
import { webhookDeliveries } from './webhook-deliveries.js';
import { webhookEndpoints } from './webhook-endpoints.js';
import { webhookEvents } from './webhook-outbox.js';
import { webhookPurge } from './webhook-purge.js';

/**
 * The first connection both proves the server answers and runs the migrations. On failure the
 * pool is ended, so a failed open leaves no connection behind.
 */
async function migrateOrEnd(pool: pg.Pool, database: string, logger: Logger | undefined): Promise<void> {
  try {
    await migratePool(pool, database, logger);
  } catch (error) {
    await pool.end().catch((endError: unknown) => {
      logger?.warn({ err: describeError(endError) }, 'postgres store: closing the pool after a failed open failed');
    });
    if (error instanceof SchemaVersionError) {
      throw error;
    }
    throw new Error(`${database}: cannot open the PostgreSQL store: ${errorMessage(error)}`, { cause: error });
  }
  logger?.debug({ database }, 'postgres store: open');
}

/** /healthz's ping, and a close that ends the pool once. */
function lifecycle(pool: pg.Pool, database: string, logger: Logger | undefined): Pick<Store, 'ping' | 'close'> {
  let closed = false;
  return {
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      // Waits for the connections in use to be released, then ends them all.
      await pool.end();
      logger?.debug({ database }, 'postgres store: closed');
    },
  };
}

/**
 * Opens the PostgreSQL store (CONTRIBUTING.md#architecture: several processes or machines on one
 * database): a `pg` pool with statement and connection timeouts so no request hangs when the
 * database does, and the schema brought to SCHEMA_VERSION. Rejects with one clear error (a
 * SchemaVersionError for a database of a newer build) and leaves no connection open then.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  return openStoreOnPool(options, createPool(options));
}

/**
 * The store on `pool` (which it migrates first, and ends on `close` or on a failed open): what
 * `openPostgresStore` and `openPostgres` share, so the latter can hand the same pool to the
 * rate limiter.
 */
export async function openStoreOnPool(options: PostgresStoreOptions, pool: pg.Pool): Promise<Store> {
  const { logger } = options;
  const database = describeDatabase(options.connectionString);
  await migrateOrEnd(pool, database, logger);
  const query = poolQuery(pool);
  const transaction = poolTransaction(pool, logger);
  return {
    ...keyReads(query),
    ...keyWrites(pool, query, transaction),
    ...domainBindings(query, transaction),
    ...requestLog(query),
    ...requestLogPurge(pool),
    ...productRecords(pool, query),
    ...activityCounts(query),
    ...authorRecords(query),
    ...authorTokens(query),
    ...webhookEndpoints(pool, query, transaction),
    ...webhookEvents(query, transaction),
    ...webhookDeliveries(query),
    ...webhookClaims(transaction),
    ...webhookPurge(pool),
    ...lifecycle(pool, database, logger),
  };
}
