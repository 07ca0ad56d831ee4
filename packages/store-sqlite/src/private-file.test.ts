import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';
import { DATABASE_FILE_MODE, databaseFiles } from './private-file.js';

/** A logger that keeps what it is given. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

async function modeOf(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}

describe.skipIf(process.platform === 'win32')('database files are 0600 (docs/protocol.md#storage)', () => {
  let dir: string;
  let umask: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-mode-'));
    // The usual umask, which leaves what SQLite creates readable by every local user (0644).
    umask = process.umask(0o022);
  });

  afterEach(async () => {
    process.umask(umask);
    await rm(dir, { recursive: true, force: true });
  });

  it('creates licence.db, -wal and -shm 0600 in a data folder someone else made 0755', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    await chmod(data, 0o755);
    const file = join(data, 'licence.db');
    const store = openSqliteStore({ file });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    await store.logRequest({ at: 2, keyId: null, host: 'a.fr', ip: '203.0.113.1', outcome: 'inconnue', produit: null });
    // While the store is open, SQLite keeps all three.
    expect(DATABASE_FILE_MODE).toBe(0o600);
    expect(await Promise.all(databaseFiles(file).map(modeOf))).toEqual(['600', '600', '600']);
    await store.close();
    expect(await modeOf(file)).toBe('600');
  });

  it('creates a missing data folder 0700', async () => {
    const file = join(dir, 'new', 'licence.db');
    await openSqliteStore({ file }).close();
    expect(await modeOf(join(dir, 'new'))).toBe('700');
    expect(await modeOf(file)).toBe('600');
  });

  it('sets an existing 0644 file and the -wal and -shm beside it to 0600, and says so', async () => {
    const file = join(dir, 'licence.db');
    // An earlier build, still running: its connection keeps the -wal and -shm it made 0644.
    const earlier = new Database(file);
    earlier.pragma('journal_mode = WAL');
    earlier.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)');
    expect(await Promise.all(databaseFiles(file).map(modeOf))).toEqual(['644', '644', '644']);

    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    expect(await Promise.all(databaseFiles(file).map(modeOf))).toEqual(['600', '600', '600']);
    const lines = logger.lines.filter((line) => line.includes('readable by other users; now 0600'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('"was":"0644"');
    await store.close();
    earlier.close();
  });

  it('leaves a file already 0600 alone, without a word', async () => {
    const file = join(dir, 'licence.db');
    await openSqliteStore({ file }).close();
    const logger = recordingLogger();
    await openSqliteStore({ file, logger }).close();
    expect(logger.lines.some((line) => line.includes('0600'))).toBe(false);
  });
});
