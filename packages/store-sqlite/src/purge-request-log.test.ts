import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger, Store } from '@licence/service';
import { activityDays } from './activity.js';
import { openDatabase } from './open-database.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { PURGE_CHUNK, requestLogPurge } from './purge-request-log.js';
import { foundInFiles, readRequestLog } from '../test/database-files.js';

/** A logger that keeps what it is given. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

const OLD = 1_700_000_000;
const CUT = 1_760_000_000;
const RECENT = 1_790_000_000;

/**
 * 300 distinct addresses, all 14 characters long: none is a part of another, nor of a recent one
 * (198.19.x), so finding one in the bytes means that very entry survived.
 */
const oldIps = Array.from({ length: 300 }, (_, i) => `198.18.${100 + Math.floor(i / 100)}.${100 + (i % 100)}`);
const recentIps = Array.from({ length: 20 }, (_, i) => `198.19.200.${100 + i}`);
const oldHosts = oldIps.map((_, i) => `ancien-${1000 + i}.boutique.fr`);

/** The entries as the server logs them: one verdict at a time, each through the group commit. */
async function logTraffic(store: Store): Promise<void> {
  for (const [i, ip] of oldIps.entries()) {
    await store.logRequest({
      at: OLD + i,
      keyId: null,
      host: oldHosts[i] ?? '',
      ip,
      outcome: 'inconnue',
      produit: null,
    });
  }
  for (const [i, ip] of recentIps.entries()) {
    await store.logRequest({
      at: RECENT + i,
      keyId: null,
      host: `recent-${i}.boutique.fr`,
      ip,
      outcome: 'inconnue',
      produit: null,
    });
  }
}

describe('requestLogPurge (docs/protocol.md#privacy)', () => {
  it('deletes more rows than one chunk holds, and counts them all', async () => {
    const db = openDatabase(':memory:', undefined);
    const total = PURGE_CHUNK * 2 + 7;
    const insert = db.prepare<[number]>(
      "INSERT INTO request_log (at, key_id, host, ip) VALUES (?, NULL, 'a.fr', '203.0.113.1')",
    );
    db.transaction(() => {
      for (let i = 0; i < total + 3; i += 1) insert.run(i < total ? 100 : 200);
    })();
    const { purgeRequestLog } = requestLogPurge(db, activityDays(db), ':memory:', undefined);
    expect(await purgeRequestLog(150)).toBe(total);
    expect(await purgeRequestLog(150)).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM request_log').get()).toEqual({ n: 3 });
    expect(await purgeRequestLog(300)).toBe(3);
    expect(db.prepare('SELECT count(*) AS n FROM request_log').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('the purge leaves no purged IP in the bytes of the files (docs/protocol.md#storage)', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-purge-'));
    file = join(dir, 'licence.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds none of 300 purged IPs nor their hosts in licence.db, -wal and -shm, and every kept IP', async () => {
    const store = openSqliteStore({ file });
    await logTraffic(store);
    // Before: every address is on the disk (the scan can find them), most in the WAL.
    expect(foundInFiles(file, [...oldIps, ...recentIps])).toHaveLength(320);

    expect(await store.purgeRequestLog(CUT)).toBe(300);
    // The server keeps the file open: what anyone can read NOW, WAL and -shm included.
    expect((await stat(`${file}-wal`)).size).toBe(0);
    expect(foundInFiles(file, oldIps)).toEqual([]);
    expect(foundInFiles(file, oldHosts)).toEqual([]);
    expect(foundInFiles(file, recentIps)).toEqual(recentIps);
    expect(readRequestLog(file).map((row) => row.ip)).toEqual(recentIps);

    await store.close();
    expect(foundInFiles(file, oldIps)).toEqual([]);
    expect(foundInFiles(file, recentIps)).toEqual(recentIps);
  });

  it('does not fail when another connection keeps the WAL from being truncated, and truncates it next time', async () => {
    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    await logTraffic(store);
    // Another process in the middle of a read: its snapshot pins the WAL's frames.
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM request_log').get();

    expect(await store.purgeRequestLog(CUT)).toBe(300);
    expect(readRequestLog(file)).toHaveLength(20);
    const warning = logger.lines.find((line) => line.includes('kept the WAL from being truncated'));
    expect(warning).toBeDefined();
    expect(warning).not.toMatch(/198\.1[89]\./);
    // The page images from before the purge are still in the WAL...
    expect(foundInFiles(file, oldIps).length).toBeGreaterThan(0);

    reader.exec('COMMIT');
    reader.close();
    // ...until the next purge, which has nothing to delete but truncates the WAL.
    expect(await store.purgeRequestLog(CUT)).toBe(0);
    expect(foundInFiles(file, oldIps)).toEqual([]);
    expect(foundInFiles(file, recentIps)).toEqual(recentIps);
    await store.close();
  });
});
