import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { StoredLogRow } from '@licence/store-contract';

/** Every request-log row of `file`, read on a connection of its own (the contract's `loggedRows`). */
export function readRequestLog(file: string): StoredLogRow[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], StoredLogRow>('SELECT at, host, ip, outcome FROM request_log ORDER BY id').all();
  } finally {
    db.close();
  }
}

/**
 * The raw bytes of the database file, its WAL and its shared-memory index, those that exist: what
 * anyone who can read the folder can read, whatever SQLite considers deleted.
 */
export function databaseBytes(file: string): Buffer[] {
  return [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
}

/** Which of `strings` appear anywhere in the bytes of the database files. */
export function foundInFiles(file: string, strings: readonly string[]): string[] {
  const files = databaseBytes(file);
  return strings.filter((text) => files.some((bytes) => bytes.includes(text)));
}
