import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Opens a SQLite file directly, to check what the store really wrote (the purge test reads
 * `request_log.ip`) or to break a row on purpose (a corrupt record must be a 500,
 * docs/protocol.md#errors).
 *
 * better-sqlite3 is a dependency of @licence/store-sqlite, not of this app, so it is loaded from
 * that package's folder; the few members used are typed here. (If the app lists it as a dev
 * dependency one day, a plain import can replace this.)
 */

export interface SqliteStatement {
  run(...params: unknown[]): { readonly changes: number };
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

type DatabaseConstructor = new (
  file: string,
  options?: { readonly readonly?: boolean; readonly fileMustExist?: boolean },
) => SqliteDatabase;

const requireFromStore = createRequire(new URL('../../../packages/store-sqlite/package.json', import.meta.url));
const Database = requireFromStore('better-sqlite3') as DatabaseConstructor;

/** Opens an existing database file (never creates one: a wrong path fails at once). */
export function openSqliteFile(file: string): SqliteDatabase {
  return new Database(file, { fileMustExist: true });
}

/**
 * Which of `strings` appear anywhere in the raw bytes of the database file, its WAL and its
 * shared-memory index (those that exist): what anyone who can read the folder can read, whatever
 * SQLite considers deleted (docs/protocol.md#storage).
 */
export function foundInDatabaseFiles(file: string, strings: readonly string[]): string[] {
  const files = [file, `${file}-wal`, `${file}-shm`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path));
  return strings.filter((text) => files.some((bytes) => bytes.includes(text)));
}
