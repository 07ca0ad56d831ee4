import type pg from 'pg';
import type { PoolClient } from 'pg';
import { pendingMigrations, refuseNewerSchema } from '@licence/service';
import type { Logger } from '@licence/service';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

/**
 * The advisory lock every migrating process takes (transaction-scoped), so two processes starting
 * together on a new database migrate it once: the second waits, then sees the new version.
 * Any constant works as long as it never changes; this one is "licence" in ASCII.
 */
export const MIGRATION_LOCK = 0x6c6963656e6365n;

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

function refuseNewer(database: string, found: number): void {
  refuseNewerSchema(database, found, SCHEMA_VERSION, '@licence/store-postgres');
}

/**
 * Brings the database to SCHEMA_VERSION and returns the version it had. All pending steps and
 * their `schema_migrations` rows commit in ONE transaction (PostgreSQL's DDL is transactional: a
 * failed step leaves the old version whole) holding `pg_advisory_xact_lock(MIGRATION_LOCK)`.
 * A database at the current version is only read: the usual start takes no lock at all. The
 * runner is the twin of store-sqlite/src/migrations.ts's, apart because pg is asynchronous and
 * better-sqlite3 is not; the checks are shared (@licence/service).
 */
export async function migrate(client: PoolClient, database: string, logger?: Logger): Promise<number> {
  const seen = await schemaVersion(client);
  refuseNewer(database, seen);
  if (seen === SCHEMA_VERSION) {
    return seen;
  }
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(CREATE_TABLE);
    // Read again under the lock: another process may have migrated meanwhile.
    const from = await schemaVersion(client);
    refuseNewer(database, from);
    for (const step of pendingMigrations(MIGRATIONS, from)) {
      await client.query(step.sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [step.version]);
    }
    await client.query('COMMIT');
    if (from !== SCHEMA_VERSION) {
      logger?.info({ from, to: SCHEMA_VERSION }, 'postgres store: schema migrated');
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
