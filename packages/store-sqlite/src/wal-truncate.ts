import type Database from 'better-sqlite3';
import type { Logger } from '@licence/service';

/**
 * How long the checkpoint that truncates the WAL waits for another connection's lock. better-sqlite3
 * is synchronous, so this wait holds the event loop: far below the store's busy_timeout, and long
 * enough for any write or read of this store to finish (each is one short statement).
 */
export const CHECKPOINT_BUSY_MS = 1000;

/** The `busy` column of `PRAGMA wal_checkpoint`: 1 when the checkpoint could not finish. */
function checkpointBusy(rows: unknown): boolean {
  const row: unknown = Array.isArray(rows) ? rows[0] : undefined;
  if (typeof row !== 'object' || row === null || !('busy' in row) || typeof row.busy !== 'number') {
    throw new TypeError(`wal_checkpoint: expected a row with a numeric busy column, got ${JSON.stringify(rows)}`);
  }
  return row.busy !== 0;
}

/**
 * docs/protocol.md#storage: copies the WAL into the database file and truncates the WAL to zero
 * bytes (https://sqlite.org/pragma.html#pragma_wal_checkpoint), so the page images it held from
 * before a purge (rows since deleted, IPs included) are gone from the disk, not only from the
 * database. Another connection reading an older snapshot, or writing, keeps the checkpoint from
 * finishing: after CHECKPOINT_BUSY_MS it gives up WITHOUT failing (the rows are deleted all the
 * same), says so at `warn`, and answers false. The frames it could not remove are overwritten as
 * the WAL is reused, and the next purge truncates it again.
 */
export function truncateWal(db: Database.Database, file: string, logger: Logger | undefined): boolean {
  const busyTimeout: unknown = db.pragma('busy_timeout', { simple: true });
  db.pragma(`busy_timeout = ${CHECKPOINT_BUSY_MS}`);
  let busy: boolean;
  try {
    busy = checkpointBusy(db.pragma('wal_checkpoint(TRUNCATE)'));
  } finally {
    db.pragma(`busy_timeout = ${Number(busyTimeout)}`);
  }
  if (busy) {
    logger?.warn(
      { file },
      'sqlite store: another connection kept the WAL from being truncated; it is truncated at the next purge',
    );
  }
  return !busy;
}
