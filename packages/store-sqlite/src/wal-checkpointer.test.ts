import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '@licence/service';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteStore } from './open-sqlite-store.js';
import { startWalCheckpointer } from './wal-checkpointer.js';
import { WAL_HIGH_WATER_BYTES, WAL_SIZE_LIMIT_BYTES } from './wal-size-limit.js';
import { themeKey } from '../test/theme-key.js';

const root = mkdtempSync(join(tmpdir(), 'licence-checkpoint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** 2,000 keys, one commit each. */
async function writeKeys(store: Store): Promise<void> {
  await store.addProduct({ id: 'theme', author: 'atelier', name: 'Theme', createdAt: 1, staging: [] });
  for (let i = 0; i < 2000; i += 1) await store.insertKey(themeKey(`${i}`.padStart(64, '0')));
}

/** The database file's size (not its -wal): what checkpoints have copied so far. */
const fileSize = (file: string): number => statSync(file).size;

const walSize = (file: string): number => statSync(`${file}-wal`).size;

/** 80 MB in one transaction: the WAL holds all of it at once, whatever the checkpoints do. */
function burst(db: Database.Database): void {
  const insert = db.prepare('INSERT INTO t (v) VALUES (zeroblob(?))');
  db.transaction(() => {
    for (let i = 0; i < 80; i += 1) insert.run(1024 * 1024);
  })();
}

/** Polls (bounded) until `done`, at most `ms`; what `done` said last. */
async function within(ms: number, done: () => boolean): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await sleep(100);
  return done();
}

describe('background WAL checkpoints (wal-checkpointer.ts)', () => {
  it('the main connection stops checkpointing, and the thread copies the WAL into the database file', async () => {
    const file = join(root, 'direct.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const checkpointer = startWalCheckpointer(db, file, undefined, 100);
    try {
      // A backstop only, past 256 MiB (4 KiB pages).
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_HIGH_WATER_BYTES / 4096);
      const before = fileSize(file);
      // 3,000 commits: far past the 1,000 frames at which the main connection would checkpoint itself.
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 0; i < 3000; i += 1) insert.run('x'.repeat(200));
      await sleep(1000);
      // Only the thread can have copied the rows into the file: about 700 KB of them.
      expect(fileSize(file) - before).toBeGreaterThan(500_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('empties a WAL a burst grew past the limit, with no writer after it (docs/protocol.md#storage)', async () => {
    const file = join(root, 'burst.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
    const checkpointer = startWalCheckpointer(db, file, undefined, 100);
    try {
      burst(db);
      expect(walSize(file)).toBeGreaterThan(64_000_000);
      // Copying alone would leave the file at 80 MB for good: nothing writes after the burst.
      expect(await within(10_000, () => walSize(file) < WAL_SIZE_LIMIT_BYTES)).toBe(true);
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 80 });
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('cuts the WAL only once the writers are quiet, never in the middle of their writes', async () => {
    const file = join(root, 'steady.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
    const checkpointer = startWalCheckpointer(db, file, undefined, 100);
    try {
      // The request connection never cuts it itself (that would be on the event loop).
      expect(db.pragma('journal_size_limit', { simple: true })).toBe(-1);
      burst(db);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      // 1.5 s of small writes, one each millisecond or so: fifteen checkpoints, none of them quiet.
      let smallest = walSize(file);
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        insert.run('x'.repeat(100));
        smallest = Math.min(smallest, walSize(file));
        await sleep(1);
      }
      expect(smallest).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
      expect(await within(10_000, () => walSize(file) < WAL_SIZE_LIMIT_BYTES)).toBe(true);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('a flood that never pauses grows the WAL only to about the backstop, whatever the thread does', () => {
    const file = join(root, 'flood.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
    // A thread that never gets to checkpoint: the request connection's backstop alone.
    const checkpointer = startWalCheckpointer(db, file, undefined, 3_600_000);
    try {
      const insert = db.prepare('INSERT INTO t (v) VALUES (zeroblob(?))');
      // 400 commits of 1 MB, no pause between them: without the backstop, a 400 MB WAL.
      for (let i = 0; i < 400; i += 1) insert.run(1024 * 1024);
      expect(walSize(file)).toBeLessThan(WAL_HIGH_WATER_BYTES + 8 * 1024 * 1024);
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 400 });
    } finally {
      void checkpointer.stop();
      db.close();
    }
  });

  it('a store opened with backgroundCheckpoints copies its WAL before it closes', async () => {
    const file = join(root, 'store.db');
    const store = openSqliteStore({ file, backgroundCheckpoints: true });
    try {
      const before = fileSize(file);
      await writeKeys(store);
      await sleep(2500);
      expect(fileSize(file) - before).toBeGreaterThan(100_000);
    } finally {
      await store.close();
    }
  });

  it('close() ends the thread and the file opens again with every key', async () => {
    const file = join(root, 'reopen.db');
    const store = openSqliteStore({ file, backgroundCheckpoints: true });
    await writeKeys(store);
    await store.close();
    const again = openSqliteStore({ file });
    try {
      for (const i of [0, 999, 1999]) {
        expect(await again.findKeyByHash(`${i}`.padStart(64, '0'))).not.toBeNull();
      }
    } finally {
      await again.close();
    }
  });
});
