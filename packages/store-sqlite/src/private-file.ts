import { chmodSync, closeSync, fchmodSync, openSync, statSync } from 'node:fs';
import { errorCode, errorMessage } from '@licence/core';
import type { Logger } from '@licence/service';

/**
 * docs/protocol.md#storage: the database, its WAL and its shared-memory index are readable by their
 * owner only. The request log holds hosts and client IPs (docs/protocol.md#privacy); the folder
 * they sit in may be 0755 when someone else created it.
 */
export const DATABASE_FILE_MODE = 0o600;

/** The database file and the two files SQLite keeps beside it in WAL mode. */
export function databaseFiles(file: string): readonly string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Creates `file` empty with DATABASE_FILE_MODE when it does not exist, before SQLite opens it:
 * SQLite would create it with 0644 less the umask, and it gives the -wal and -shm files it creates
 * later the mode of the database file. `fchmod` sets the mode whatever the umask took away. A file
 * another process created first (EEXIST) is left to `tightenMode`.
 */
function createPrivate(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', DATABASE_FILE_MODE);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return;
    throw new Error(`${file}: cannot create the SQLite database: ${errorMessage(error)}`, { cause: error });
  }
  try {
    fchmodSync(fd, DATABASE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/**
 * An existing file that group or others may read or write (one made by an earlier build, or by
 * hand) is set to DATABASE_FILE_MODE, and the change is logged. A file this process may not chmod
 * (owned by another user) is used as it is, with a warning: refusing to start would take the
 * service down over a permission its owner chose.
 */
function tightenMode(path: string, logger: Logger | undefined): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) === 0) return;
  const was = mode.toString(8).padStart(4, '0');
  try {
    chmodSync(path, DATABASE_FILE_MODE);
    logger?.warn({ file: path, was }, 'sqlite store: the file was readable by other users; now 0600');
  } catch (error) {
    logger?.warn(
      { file: path, was, code: errorCode(error) ?? 'error' },
      'sqlite store: the file is readable by other users and cannot be set to 0600',
    );
  }
}

/** Every database file created 0600, and every existing one brought to it (POSIX modes only). */
export function ensurePrivateFiles(file: string, logger: Logger | undefined): void {
  createPrivate(file);
  // Windows has no group or other permission bits for chmod to clear.
  if (process.platform === 'win32') return;
  for (const path of databaseFiles(file)) tightenMode(path, logger);
}
