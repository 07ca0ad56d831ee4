import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's place for the server binaries (where the postgresql package installs PostgreSQL 15). */
export const DEBIAN_BIN_DIRS: readonly string[] = [
  '/usr/lib/postgresql/17/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/15/bin',
];

async function hasServerBinaries(dir: string): Promise<boolean> {
  try {
    await access(join(dir, 'initdb'), constants.X_OK);
    await access(join(dir, 'pg_ctl'), constants.X_OK);
    return true;
  } catch {
    // Not found here is an answer, not a fault: the caller tries the next place.
    return false;
  }
}

/**
 * The folder holding `initdb` and `pg_ctl`, or null when this machine has none. Looked for in
 * `PG_BIN_DIR` (an explicit choice wins), Debian's versioned folders, `pg_config --bindir`, then
 * every folder of PATH (Debian keeps initdb off PATH, other systems do not).
 */
export async function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const candidates: string[] = [];
  if (env.PG_BIN_DIR !== undefined && env.PG_BIN_DIR !== '') {
    candidates.push(env.PG_BIN_DIR);
  }
  candidates.push(...DEBIAN_BIN_DIRS);
  try {
    const { stdout } = await run('pg_config', ['--bindir'], { env });
    const dir = stdout.trim();
    if (dir !== '') {
      candidates.push(dir);
    }
  } catch {
    // No pg_config on PATH: the PATH folders below are the last places to look.
    candidates.push(...(env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''));
  }
  for (const dir of candidates) {
    if (await hasServerBinaries(dir)) {
      return dir;
    }
  }
  return null;
}
