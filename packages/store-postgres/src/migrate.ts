import type pg from 'pg';
import type { PoolClient } from 'pg';
import { pendingMigrations, refuseNewerSchema } from '@licence/service';
import type { Logger } from '@licence/service';
import { QUERY_TIMEOUT_MARGIN_MS } from './create-pool.js';
import { MIGRATIONS } from './migrations.js';

/**
 * The advisory lock every migrating process takes (transaction-scoped), so two processes starting
 * together on a new database migrate it once: the second waits, then sees the new version.
 * Any constant works as long as it never changes; this one is "licence" in ASCII.
 */
export const MIGRATION_LOCK = 0x6c6963656e6365n;

/**
 * How long one statement of a migration may run: the pool's statement_timeout (2 s) is for the hot
 * path, not for a step that builds an index over a whole request log (step 3), nor for a process
 * waiting on the migration lock while another one runs that step. Still a bound, so a start never
 * hangs for ever on a database that stopped answering.
 */
export const MIGRATION_TIMEOUT_MS = 30 * 60 * 1000;

const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** The database's schema version: 0 when it has no `schema_migrations` table yet. */
export async function schemaVersion(client: PoolClient): Promise<number> {
  const table = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (table.rows[0]?.present !== true) {
    return 0;
  }
  const result = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return result.rows[0]?.version ?? 0;
}

function refuseNewer(database: string, found: number, supported: number): void {
  refuseNewerSchema(database, found, supported, '@licence/store-postgres');
}

/** A statement of the migration's transaction, under MIGRATION_TIMEOUT_MS on both sides. */
async function migrationQuery(client: PoolClient, text: string, values: unknown[] = []): Promise<void> {
  // pg reads `query_timeout` from the query's config too; its types only list it for the client.
  const config: pg.QueryConfig & { readonly query_timeout: number } = {
    text,
    values,
    query_timeout: MIGRATION_TIMEOUT_MS + QUERY_TIMEOUT_MARGIN_MS,
  };
  await client.query(config);
}

/** Under the lock: the pending steps and their `schema_migrations` rows; returns the old version. */
async function runSteps(client: PoolClient, database: string, steps: readonly string[]): Promise<number> {
  // SET LOCAL: for this transaction only; the connection goes back to the pool with its 2 s.
  await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
  await migrationQuery(client, 'SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
  await migrationQuery(client, CREATE_TABLE);
  // Read again under the lock: another process may have migrated meanwhile.
  const from = await schemaVersion(client);
  refuseNewer(database, from, steps.length);
  for (const step of pendingMigrations(steps, from)) {
    await migrationQuery(client, step.sql);
    await migrationQuery(client, 'INSERT INTO schema_migrations (version) VALUES ($1)', [step.version]);
  }
  return from;
}

/**
 * Brings the database to SCHEMA_VERSION (the number of `steps`, MIGRATIONS unless a test hands
 * others) and returns the version it had. All pending steps and their `schema_migrations` rows
 * commit in ONE transaction (PostgreSQL's DDL is transactional: a failed step leaves the old
 * version whole) holding `pg_advisory_xact_lock(MIGRATION_LOCK)`, its statements under
 * MIGRATION_TIMEOUT_MS. A database at the current version is only read: the usual start takes no
 * lock at all. The runner is the twin of store-sqlite/src/migrations.ts's, apart because pg is
 * asynchronous and better-sqlite3 is not; the checks are shared (@licence/service).
 */
export async function migrate(
  client: PoolClient,
  database: string,
  logger?: Logger,
  steps: readonly string[] = MIGRATIONS,
): Promise<number> {
  const seen = await schemaVersion(client);
  refuseNewer(database, seen, steps.length);
  if (seen === steps.length) {
    return seen;
  }
  await client.query('BEGIN');
  try {
    const from = await runSteps(client, database, steps);
    await client.query('COMMIT');
    if (from !== steps.length) {
      logger?.info({ from, to: steps.length }, 'postgres store: schema migrated');
    }
    return from;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      logger?.warn({ err: String(rollbackError) }, 'postgres store: rollback of a failed migration failed');
    });
    throw error;
  }
}

/** Migrates the database of `pool` on one of its connections, released after. */
export async function migratePool(pool: pg.Pool, database: string, logger: Logger | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await migrate(client, database, logger);
  } finally {
    client.release();
  }
}
