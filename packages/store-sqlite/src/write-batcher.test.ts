import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteBatcher } from './write-batcher.js';

describe('createWriteBatcher', () => {
  let dir: string;
  let db: Database.Database;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-batcher-'));
    db = new Database(join(dir, 'batch.db'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v INTEGER NOT NULL UNIQUE)');
  });

  afterEach(async () => {
    if (db.open) {
      db.close();
    }
    await rm(dir, { recursive: true, force: true });
  });

  function count(): number {
    return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM t').get()?.n ?? -1;
  }

  it('commits the writes of one turn in one transaction, and resolves each with its own result', async () => {
    const writes = createWriteBatcher(db);
    const insert = db.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    const commits: number[] = [];
    const pending = [1, 2, 3].map((v) =>
      writes
        .write(() => {
          insert.run(v);
          return v * 10;
        })
        .then((result) => {
          commits.push(count());
          return result;
        }),
    );
    expect(count()).toBe(0);
    expect(await Promise.all(pending)).toEqual([10, 20, 30]);
    // Each promise settled after the whole batch was in: all three saw 3 rows.
    expect(commits).toEqual([3, 3, 3]);
  });

  it('settles nothing as written when the COMMIT itself fails: every write rejects, no row stays', async () => {
    // A deferred foreign key is only checked at COMMIT: one bad row makes the whole commit fail
    // after every write of the batch ran without error.
    db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    db.exec('CREATE TABLE child (p INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    db.pragma('foreign_keys = ON');
    const writes = createWriteBatcher(db);
    const results = await Promise.allSettled([
      writes.write(() => db.prepare('INSERT INTO t (v) VALUES (1)').run()),
      writes.write(() => db.prepare('INSERT INTO child (p) VALUES (42)').run()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(count()).toBe(0);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls back only the write that throws, and rejects only its promise', async () => {
    const writes = createWriteBatcher(db);
    const insert = db.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
    const results = await Promise.allSettled([
      writes.write(() => insert.run(1)),
      writes.write(() => {
        insert.run(2);
        insert.run(1); // UNIQUE fails after the 2 went in: the 2 must go too
      }),
      writes.write(() => insert.run(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(
      db
        .prepare<[], { v: number }>('SELECT v FROM t ORDER BY v')
        .all()
        .map((r) => r.v),
    ).toEqual([1, 3]);
  });

  it('commits what is queued on flush, before a close', async () => {
    const writes = createWriteBatcher(db);
    const done = writes.write(() => db.prepare('INSERT INTO t (v) VALUES (7)').run());
    writes.flush();
    db.close();
    await expect(done).resolves.toMatchObject({ changes: 1 });
    db = new Database(join(dir, 'batch.db'));
    expect(count()).toBe(1);
  });

  it('rejects every write of a batch that cannot commit', async () => {
    const writes = createWriteBatcher(db);
    const pending = [writes.write(() => 1), writes.write(() => 2)];
    db.close();
    const results = await Promise.allSettled(pending);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
