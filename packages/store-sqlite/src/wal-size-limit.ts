import type Database from 'better-sqlite3';

/**
 * docs/protocol.md#storage: the size the WAL file is brought back to after a burst grew it. Between
 * the checkpoints of a busy server it holds a few MB, so the limit never cuts it in ordinary
 * running, where truncating and growing it again would only cost.
 */
export const WAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * docs/protocol.md#storage: past this size a served store's request connection checkpoints the WAL
 * itself (wal-checkpointer.ts): a bound on the disk a flood that never pauses takes.
 */
export const WAL_HIGH_WATER_BYTES = 256 * 1024 * 1024;

/**
 * Sets `journal_size_limit` (https://sqlite.org/pragma.html#pragma_journal_size_limit): once a
 * checkpoint has copied the whole WAL, the next writer starts it again from its beginning and cuts
 * the file to this size. Per connection, so every store connection sets it, the ones without the
 * checkpoint thread (a CLI command) included. It needs a writer after the checkpoint: an idle
 * server's WAL is emptied by the checkpoint thread instead (wal-checkpointer.ts).
 */
export function limitWalSize(db: Database.Database): void {
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
}

/** No limit (SQLite's default, -1): the served store's checkpoint thread cuts the file instead (wal-checkpointer.ts). */
export function unlimitWalSize(db: Database.Database): void {
  db.pragma('journal_size_limit = -1');
}
