import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';
import { readRequestLog } from '../test/database-files.js';

type RequestLogEntry = Store.RequestLogEntry;

const T0 = 1_790_000_000;
const DAY = Math.floor(T0 / 86400);

function verdict(fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return { at: T0, keyId: null, host: 'a.fr', ip: '203.0.113.7', outcome: 'ok', produit: 'theme', ...fields };
}

describe('activity_days (docs/protocol.md#activity)', () => {
  let dir: string;
  let file: string;
  let store: Store;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-activity-'));
    file = join(dir, 'licence.db');
    store = openSqliteStore({ file });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('commits a log line and its count together: a count that fails takes its line back, and only its own', async () => {
    // Not a value the types allow: the log's column takes NULL, the count's does not, so only the
    // second statement of the write fails.
    const broken = verdict({ host: 'broken.fr', outcome: null as unknown as RequestLogEntry['outcome'] });
    const results = await Promise.allSettled([
      store.logRequest(verdict({ host: 'before.fr' })),
      store.logRequest(broken),
      store.logRequest(verdict({ host: 'after.fr' })),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(readRequestLog(file).map((row) => row.host)).toEqual(['before.fr', 'after.fr']);
    expect(await store.activity('theme', DAY, DAY)).toEqual([{ day: DAY, outcome: 'ok', count: 2 }]);
  });

  it('reads a range of the primary key, never the request log', () => {
    const db = new Database(file, { readonly: true });
    const plan = db
      .prepare<[], { detail: string }>(
        "EXPLAIN QUERY PLAN SELECT day, outcome, count FROM activity_days WHERE product_id = 'theme' AND day BETWEEN 1 AND 2",
      )
      .all()
      .map((row) => row.detail);
    db.close();
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatch(/^SEARCH activity_days USING PRIMARY KEY \(product_id=\? AND day>\? AND day<\?\)$/);
  });

  it('refuses an outcome it never writes instead of showing it', async () => {
    const db = new Database(file);
    db.prepare("INSERT INTO activity_days (product_id, day, outcome, count) VALUES ('theme', ?, 'maybe', 1)").run(DAY);
    db.close();
    await expect(store.activity('theme', DAY, DAY)).rejects.toThrow(
      'activity_days.outcome: expected one of ok, essai, autre_domaine, transfert, regeneration, revocation, expiree, inconnue, reseau, got "maybe"',
    );
  });
});
