import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage } from '@licence/core';
import { SchemaVersionError } from '@licence/service';
import type { Logger } from '@licence/service';
import { migrate, refuseNewerFile } from './migrations.js';
import { ensurePrivateFiles } from './private-file.js';
import { limitWalSize } from './wal-size-limit.js';

/**
 * How long a writer waits for another process's write lock before failing with SQLITE_BUSY.
 * Every write here is one short transaction, so 5 s only runs out when something is badly stuck.
 */
export const BUSY_TIMEOUT_MS = 5000;

function connect(file: string): Database.Database {
  try {
    // `timeout` is SQLite's busy_timeout, set before anything else so that even the WAL switch
    // and the migration wait for another process instead of failing.
    return new Database(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${file}: cannot open the SQLite database: ${errorMessage(error)}`, { cause: error });
  }
}

/** The connection's settings, then the schema; a file of a newer build is refused before any write. */
function prepare(db: Database.Database, file: string, logger: Logger | undefined): void {
  const inMemory = file === ':memory:' || file === '';
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  refuseNewerFile(db, file);
  // WAL: readers never block the writer and the other way round (https://sqlite.org/wal.html).
  const mode: unknown = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal' && !inMemory) {
    logger?.warn({ file, journalMode: mode }, 'sqlite store: WAL is not available on this file system');
  }
  // In WAL mode NORMAL never corrupts the file and loses nothing when the process dies; only a
  // power cut may roll back the last commits. FULL would add an fsync to every request's log
  // line (docs/protocol.md#privacy) on the hot path
  // (https://sqlite.org/pragma.html#pragma_synchronous).
  db.pragma('synchronous = NORMAL');
  limitWalSize(db);
  // Off by default in SQLite, per connection: the schema's REFERENCES only hold with it.
  db.pragma('foreign_keys = ON');
  secureDelete(db);
  migrate(db, file, logger);
}

/**
 * docs/protocol.md#storage: what a DELETE frees (the purge's rows, IPs and all) is overwritten with
 * zeros, in its page and in pages put on the free list, instead of staying readable in the file
 * until reused (https://sqlite.org/pragma.html#pragma_secure_delete). Per connection, so every
 * connection sets it: a purge run by the CLI zeroes too. The cost is the writing of those zeros,
 * paid mostly by the purge: the hot path inserts log rows and rewrites a "last seen" in place.
 */
function secureDelete(db: Database.Database): void {
  const value: unknown = db.pragma('secure_delete = ON', { simple: true });
  if (value !== 1) {
    throw new Error(`secure_delete is not available in this SQLite build (got ${String(value)})`);
  }
}

/**
 * Opens `file` (creating its folder, 0700, when missing; the file and its companions 0600,
 * private-file.ts) with the store's settings and its schema at SCHEMA_VERSION. Synchronous: a bad
 * file stops the start at once, with one clear error (a SchemaVersionError for a file of a newer
 * build), and leaves no connection open.
 */
export function openDatabase(file: string, logger: Logger | undefined): Database.Database {
  if (file !== ':memory:' && file !== '') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    ensurePrivateFiles(file, logger);
  }
  const db = connect(file);
  try {
    prepare(db, file, logger);
  } catch (error) {
    db.close();
    if (error instanceof SchemaVersionError) {
      throw error;
    }
    throw new Error(`${file}: cannot open the SQLite store: ${errorMessage(error)}`, { cause: error });
  }
  logger?.debug({ file }, 'sqlite store: open');
  return db;
}
