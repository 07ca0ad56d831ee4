import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SchemaVersionError } from '@licence/service';
import type { Logger } from '@licence/service';
import { MIGRATIONS, migrate, REBUILD_BELOW_VERSION, SCHEMA_VERSION } from './migrations.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { foundInFiles, readRequestLog } from '../test/database-files.js';
import { insertedKeyId, themeKey } from '../test/theme-key.js';

/** A logger that keeps what it is given. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/** The names of the tables and indexes of `file`. */
function schemaNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name")
      .all()
      .map((row) => row.name);
  } finally {
    db.close();
  }
}

const oldIps = Array.from({ length: 300 }, (_, i) => `198.18.${100 + Math.floor(i / 100)}.${100 + (i % 100)}`);
const recentIps = Array.from({ length: 20 }, (_, i) => `198.19.200.${100 + i}`);

/**
 * A file as the build of schema version 1 left it: its migration, then a year of traffic, then its
 * purge, which set `ip = NULL` (without secure_delete, SQLite's default) and checkpointed.
 */
function writeVersionOneFile(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(MIGRATIONS[0] ?? '');
  db.pragma('user_version = 1');
  const insert = db.prepare<[number, string, string]>(
    'INSERT INTO request_log (at, key_id, host, ip) VALUES (?, NULL, ?, ?)',
  );
  for (const [i, ip] of oldIps.entries()) insert.run(1_700_000_000 + i, `ancien-${i}.fr`, ip);
  for (const [i, ip] of recentIps.entries()) insert.run(1_790_000_000 + i, `recent-${i}.fr`, ip);
  db.prepare('UPDATE request_log SET ip = NULL WHERE ip IS NOT NULL AND at < ?').run(1_760_000_000);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const T2 = 1_790_000_000;

/**
 * A file as the build of schema version 2 left it: a product of an author who has no record yet
 * (authors did not exist), a key with a bound domain, and three log lines without outcomes.
 */
function writeVersionTwoFile(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(MIGRATIONS[0] ?? '');
  db.exec(MIGRATIONS[1] ?? '');
  db.pragma('user_version = 2');
  db.prepare("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', ?)").run(T2);
  db.prepare(
    "INSERT INTO keys (id, hash, hint, product_id, kind, sites, created_at) VALUES (7, ?, 'AB12', 'theme', 'buyer', 2, ?)",
  ).run('a'.repeat(64), T2);
  db.prepare(
    "INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES (7, 'a.fr', 0, ?, ?)",
  ).run(T2, T2 + 60);
  const log = db.prepare<[number, number | null, string]>(
    "INSERT INTO request_log (at, key_id, host, ip) VALUES (?, ?, ?, '203.0.113.7')",
  );
  log.run(T2, 7, 'a.fr');
  log.run(T2 + 1, 7, 'b.fr');
  log.run(T2 + 2, null, 'c.fr');
  db.close();
}

const T3 = 1_800_000_000;

/**
 * A file as the build of schema version 3 left it: an author with a token, her product, a key with
 * a bound domain, a log line and its activity count. No webhook table yet.
 */
function writeVersionThreeFile(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const step of MIGRATIONS.slice(0, 3)) db.exec(step);
  db.pragma('user_version = 3');
  db.prepare("INSERT INTO authors (id, name, created_at) VALUES ('alice', 'Alice', ?)").run(T3);
  db.prepare(
    "INSERT INTO author_tokens (id, author_id, hash, label, created_at) VALUES ('tok_1', 'alice', ?, 'shop', ?)",
  ).run('b'.repeat(64), T3);
  db.prepare("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', ?)").run(T3);
  db.prepare(
    "INSERT INTO keys (id, hash, hint, product_id, kind, sites, created_at) VALUES (7, ?, 'AB12', 'theme', 'buyer', 2, ?)",
  ).run('a'.repeat(64), T3);
  db.prepare(
    "INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES (7, 'a.fr', 0, ?, ?)",
  ).run(T3, T3 + 60);
  db.prepare("INSERT INTO request_log (at, key_id, host, ip, outcome) VALUES (?, 7, 'a.fr', '203.0.113.7', 'ok')").run(
    T3,
  );
  db.prepare("INSERT INTO activity_days (product_id, day, outcome, count) VALUES ('theme', ?, 'ok', 1)").run(
    Math.floor(T3 / 86400),
  );
  db.close();
}

const T4 = 1_810_000_000;

/**
 * A file as the build of schema version 4 left it: a product, a key regenerated then transferred
 * (ids 7 -> 8 -> 9, 9 active) and an unrelated key 10. No staging, lineage or ended_by yet.
 */
function writeVersionFourFile(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const step of MIGRATIONS.slice(0, 4)) db.exec(step);
  db.pragma('user_version = 4');
  db.prepare("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', ?)").run(T4);
  const key = db.prepare<[number, string, string, number | null, number | null]>(
    "INSERT INTO keys (id, hash, hint, product_id, kind, sites, status, ended_at, replaced_by, created_at) VALUES (?, ?, 'AB12', 'theme', 'buyer', 1, ?, ?, ?, 0)",
  );
  // Inserted last first: replaced_by refers to a key that already exists.
  key.run(9, '9'.repeat(64), 'active', null, null);
  key.run(8, '8'.repeat(64), 'transfert', T4 + 20, 9);
  key.run(7, '7'.repeat(64), 'regeneration', T4 + 10, 8);
  key.run(10, 'a'.repeat(64), 'active', null, null);
  db.close();
}

function pragma(file: string, name: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma(name, { simple: true });
  } finally {
    db.close();
  }
}

describe('migrations', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-migrations-'));
    file = join(dir, 'licence.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('numbers the schema by its steps', () => {
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
  });

  it('brings a fresh file to the latest version, in WAL mode', async () => {
    const store = openSqliteStore({ file });
    await store.close();
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(pragma(file, 'journal_mode')).toBe('wal');
  });

  it('creates the tables and the hot-path indexes', async () => {
    const store = openSqliteStore({ file });
    await store.close();
    const db = new Database(file, { readonly: true });
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name")
      .all()
      .map((row) => row.name);
    db.close();
    expect(names).toEqual(
      expect.arrayContaining([
        'products',
        'keys',
        'bound_domains',
        'request_log',
        'products_author',
        'keys_product',
        'keys_one_live_dev',
        'request_log_at',
        'activity_days',
        'authors',
        'author_tokens',
        'author_tokens_author',
        'keys_buyer_transfers',
      ]),
    );
    // Step 2 replaced the partial index of step 1: the purge walks every entry by time.
    expect(names).not.toContain('request_log_ip_at');
  });

  it('upgrades a file of version 1: rebuilt once, so the IPs its purge set to NULL are gone from the bytes', async () => {
    writeVersionOneFile(file);
    // What the old purge left: "erased" addresses still readable in the file's free space.
    expect(foundInFiles(file, oldIps).length).toBeGreaterThan(0);
    expect(REBUILD_BELOW_VERSION).toBe(2);

    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    expect(foundInFiles(file, oldIps)).toEqual([]);
    expect(foundInFiles(file, recentIps)).toEqual(recentIps);
    expect(logger.lines.filter((line) => line.includes('rebuilt once (VACUUM)'))).toHaveLength(1);
    expect(logger.lines.some((line) => line.includes(`"from":1,"to":${SCHEMA_VERSION}`))).toBe(true);
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(schemaNames(file)).toContain('request_log_at');
    expect(schemaNames(file)).not.toContain('request_log_ip_at');
    // Every entry is kept by the upgrade; the next purge deletes those past retention.
    expect(readRequestLog(file)).toHaveLength(320);
    // Logged before step 3: no outcome was recorded.
    expect(readRequestLog(file).every((row) => row.outcome === null)).toBe(true);
    expect(await store.purgeRequestLog(1_760_000_000)).toBe(300);
    expect(readRequestLog(file).map((row) => row.ip)).toEqual(recentIps);
    await store.close();

    // Opened again: at the current version, nothing is rebuilt or migrated.
    const again = recordingLogger();
    await openSqliteStore({ file, logger: again }).close();
    expect(again.lines.some((line) => line.includes('VACUUM') || line.includes('migrated'))).toBe(false);
  });

  it('upgrades a file of version 2 in place, keeping every row; counts start from the upgrade', async () => {
    writeVersionTwoFile(file);
    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(logger.lines.some((line) => line.includes(`"from":2,"to":${SCHEMA_VERSION}`))).toBe(true);
    expect(logger.lines.some((line) => line.includes('VACUUM'))).toBe(false);

    expect(await store.getProduct('theme')).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      createdAt: T2,
      staging: [],
    });
    expect(await store.findKeyById('7')).toMatchObject({
      hash: 'a'.repeat(64),
      status: 'active',
      domains: [{ domain: 'a.fr', firstSeen: T2, lastSeen: T2 + 60 }],
    });
    expect(readRequestLog(file).map(({ host, outcome }) => ({ host, outcome }))).toEqual([
      { host: 'a.fr', outcome: null },
      { host: 'b.fr', outcome: null },
      { host: 'c.fr', outcome: null },
    ]);
    // Lines logged before the upgrade are not counted after the fact (their outcome is unknown).
    const day = Math.floor(T2 / 86400);
    expect(await store.activity('theme', day - 365, day)).toEqual([]);
    await store.logRequest({
      at: T2 + 3,
      keyId: '7',
      host: 'a.fr',
      ip: '203.0.113.7',
      outcome: 'ok',
      produit: 'theme',
    });
    expect(await store.activity('theme', day, day)).toEqual([{ day, outcome: 'ok', count: 1 }]);

    // The product made before authors existed belongs to the author made later with its id.
    expect(await store.listProducts('alice')).toHaveLength(1);
    expect(await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: T2 + 10 })).toEqual({
      result: 'created',
      id: 'alice',
    });
    expect((await store.listProducts('alice')).map((product) => product.id)).toEqual(['theme']);
    // And the purge still walks the log by time, old lines included.
    expect(await store.purgeRequestLog(T2 + 2)).toBe(2);
    await store.close();
  });

  it('upgrades a file of version 3 in place: every row kept, and webhooks work at once (step 4)', async () => {
    writeVersionThreeFile(file);
    expect(schemaNames(file)).not.toContain('webhook_events');
    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(logger.lines.some((line) => line.includes(`"from":3,"to":${SCHEMA_VERSION}`))).toBe(true);
    expect(logger.lines.some((line) => line.includes('VACUUM'))).toBe(false);
    expect(schemaNames(file)).toEqual(
      expect.arrayContaining([
        'webhook_endpoints',
        'webhook_secrets',
        'webhook_events',
        'webhook_deliveries',
        'webhook_attempts',
        'webhook_deliveries_pending',
        'webhook_deliveries_leased',
      ]),
    );

    expect(await store.getAuthor('alice')).toEqual({ id: 'alice', name: 'Alice', createdAt: T3 });
    expect(await store.findAuthorToken('b'.repeat(64))).toMatchObject({ id: 'tok_1', authorId: 'alice' });
    expect(await store.findKeyById('7')).toMatchObject({
      status: 'active',
      domains: [{ domain: 'a.fr', firstSeen: T3, lastSeen: T3 + 60 }],
    });
    const day = Math.floor(T3 / 86400);
    expect(await store.activity('theme', day, day)).toEqual([{ day, outcome: 'ok', count: 1 }]);
    expect(readRequestLog(file)).toEqual([{ at: T3, host: 'a.fr', ip: '203.0.113.7', outcome: 'ok' }]);

    // The upgraded file takes webhooks: an endpoint of the existing author receives the event of
    // a change to her existing key, and the deliverer can claim it.
    const added = await store.addWebhookEndpoint({
      id: 'wh_1',
      author: 'alice',
      url: 'https://shop.example/hook',
      events: ['key.revoked'],
      createdAt: T3 + 1,
      secret: 'whsec_test',
    });
    expect(added).toEqual({ result: 'created', id: 'wh_1' });
    const revoked = {
      id: 'msg_1',
      type: 'key.revoked',
      produit: 'theme',
      at: T3 + 2,
      body: '{}',
      dedupe: null,
    } as const;
    expect(await store.revokeKey('7', null, T3 + 2, [revoked])).toBe('revoked');
    const claimed = await store.claimWebhookDeliveries(T3 + 2, T3 + 32, 10);
    expect(claimed.map(({ eventId, url, secrets }) => ({ eventId, url, secrets }))).toEqual([
      { eventId: 'msg_1', url: 'https://shop.example/hook', secrets: ['whsec_test'] },
    ]);
    await store.close();
  });

  it('upgrades a file of version 4 (step 5): no staging patterns, and lineages backfilled along replaced_by', async () => {
    writeVersionFourFile(file);
    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    expect(logger.lines.some((line) => line.includes(`"from":4,"to":${SCHEMA_VERSION}`))).toBe(true);
    expect(schemaNames(file)).toContain('keys_buyer_transfers');
    expect(await store.getProduct('theme')).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      createdAt: T4,
      staging: [],
    });
    // A chain made before the upgrade is one lineage, its first key's; who ended its keys is unknown.
    for (const id of ['7', '8', '9']) {
      expect(await store.findKeyById(id)).toMatchObject({ lineage: '7', endedBy: null, staging: [] });
    }
    expect((await store.findKeyById('10'))?.lineage).toBe('10');
    expect((await store.findKeyByHash('9'.repeat(64)))?.lineage).toBe('7');
    // Transfers ended before the upgrade are not counted as the buyer's; the next one is.
    expect(await store.countBuyerTransfers('7', 0)).toBe(0);
    const next = themeKey('b'.repeat(64), { createdAt: T4 + 30 });
    const moved = await store.replaceKey('9', 'transfert', next, [], T4 + 30, [], 'buyer');
    expect(moved.result).toBe('created');
    expect(await store.countBuyerTransfers('7', T4)).toBe(1);
    expect((await store.findKeyByHash(next.hash))?.lineage).toBe('7');
    // And the upgraded product takes patterns.
    expect((await store.updateProduct('theme', { staging: ['*.staging.example'] }))?.staging).toEqual([
      '*.staging.example',
    ]);
    expect((await store.findKeyById('10'))?.staging).toEqual(['*.staging.example']);
    await store.close();
  });

  it("reads a key a previous build's process inserted without a lineage as its own, and gives it one when ending it", async () => {
    const store = openSqliteStore({ file });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const old = await insertedKeyId(store, themeKey('c'.repeat(64)));
    // As a process of schema version 4 still running on the upgraded file writes a key.
    const db = new Database(file);
    db.prepare('UPDATE keys SET lineage = NULL WHERE id = ?').run(Number(old));
    db.close();
    expect((await store.findKeyById(old))?.lineage).toBe(old);
    const next = themeKey('d'.repeat(64));
    expect((await store.replaceKey(old, 'transfert', next, [], 3, [], 'buyer')).result).toBe('created');
    expect((await store.findKeyByHash(next.hash))?.lineage).toBe(old);
    expect(await store.countBuyerTransfers(old, 0)).toBe(1);
    await store.close();
  });

  it('keeps staging a JSON array and ended_by one of its initiators (step 5 constraints)', async () => {
    await openSqliteStore({ file }).close();
    const db = new Database(file);
    const product = db.prepare<[string, string]>(
      "INSERT INTO products (id, author, name, created_at, staging) VALUES (?, 'alice', 'P', 1, ?)",
    );
    expect(() => product.run('a', '"*.example.com"')).toThrow(/CHECK constraint failed/);
    expect(() => product.run('b', 'not json')).toThrow(/CHECK constraint failed/);
    product.run('c', '["*.example.com"]');
    db.prepare(
      "INSERT INTO keys (hash, hint, product_id, kind, sites, created_at) VALUES (?, 'AB12', 'c', 'buyer', 1, 1)",
    ).run('c'.repeat(64));
    const endedBy = db.prepare<[string]>('UPDATE keys SET ended_by = ?');
    expect(() => endedBy.run('shop')).toThrow(/CHECK constraint failed/);
    endedBy.run('buyer');
    db.close();
  });

  it('keeps author tokens as SHA-256 hex of known authors (step 3 constraints)', async () => {
    await openSqliteStore({ file }).close();
    const db = new Database(file);
    db.pragma('foreign_keys = ON');
    db.prepare("INSERT INTO authors (id, name, created_at) VALUES ('alice', 'Alice', 1)").run();
    const insert = db.prepare<[string, string, string]>(
      'INSERT INTO author_tokens (id, author_id, hash, created_at) VALUES (?, ?, ?, 1)',
    );
    expect(() => insert.run('tok_1', 'alice', 'short')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('tok_2', 'nobody', 'b'.repeat(64))).toThrow(/FOREIGN KEY/);
    insert.run('tok_3', 'alice', 'c'.repeat(64));
    expect(() => insert.run('tok_4', 'alice', 'c'.repeat(64))).toThrow(/UNIQUE constraint failed: author_tokens.hash/);
    db.close();
  });

  it('does not rebuild a fresh file', async () => {
    const logger = recordingLogger();
    await openSqliteStore({ file, logger }).close();
    expect(logger.lines.some((line) => line.includes('migrated'))).toBe(true);
    expect(logger.lines.some((line) => line.includes('VACUUM'))).toBe(false);
  });

  it('upgrades 5 to 6: the fan-out starts after the newest event, which its deliveries already had', async () => {
    // Version 5 made an event's deliveries in its transaction: wh_a got msg_1; wh_b came after it.
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    for (const step of MIGRATIONS.slice(0, 5)) db.exec(step);
    db.pragma('user_version = 5');
    db.exec(`
      INSERT INTO authors (id, name, created_at) VALUES ('alice', 'Alice', ${T4});
      INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', ${T4});
      INSERT INTO webhook_endpoints (id, author, url, events, created_at)
        VALUES ('wh_a', 'alice', 'https://shop.example/a', '["verdict.refused"]', ${T4});
      INSERT INTO webhook_events (id, type, product_id, at, body) VALUES ('msg_1', 'verdict.refused', 'theme', ${T4}, '{}');
      INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, next_attempt_at) VALUES ('dlv_1', 'wh_a', 1, ${T4});
      INSERT INTO webhook_endpoints (id, author, url, events, created_at)
        VALUES ('wh_b', 'alice', 'https://shop.example/b', '["verdict.refused"]', ${T4 + 1});
    `);
    db.close();
    const store = openSqliteStore({ file });
    await store.addWebhookEvent({
      id: 'msg_2',
      type: 'verdict.refused',
      produit: 'theme',
      at: T4 + 2,
      body: '{}',
      dedupe: null,
    });
    const events = async (endpoint: string) =>
      (await store.listWebhookDeliveries(endpoint, 10)).map((delivery) => delivery.eventId);
    expect(await events('wh_a')).toEqual(['msg_2', 'msg_1']);
    expect(await events('wh_b')).toEqual(['msg_2']);
    await store.close();
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
  });

  it('applies nothing to a file already at the latest version, and keeps its data', async () => {
    const first = openSqliteStore({ file });
    await first.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    await first.close();
    const db = new Database(file);
    expect(migrate(db, file)).toBe(SCHEMA_VERSION);
    db.close();
    const second = openSqliteStore({ file });
    expect(await second.getProduct('theme')).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      createdAt: 1,
      staging: [],
    });
    await second.close();
  });

  it('refuses a file written by a newer build, with a clear error, and leaves it untouched', async () => {
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.exec('CREATE TABLE future (x INTEGER)');
    db.close();

    expect(() => openSqliteStore({ file })).toThrow(SchemaVersionError);
    expect(() => openSqliteStore({ file })).toThrow(
      `${file}: schema version ${SCHEMA_VERSION + 1} is newer than this build supports (${SCHEMA_VERSION})`,
    );
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION + 1);
    // Not even switched to WAL.
    expect(pragma(file, 'journal_mode')).toBe('delete');
    const check = new Database(file, { readonly: true });
    const tables = check.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
    check.close();
    expect(tables.map((t) => t.name)).toEqual(['future']);
  });

  it('rolls a failed migration back whole: no half-built schema, version unchanged', () => {
    const db = new Database(file);
    // A table in the way makes the first step fail halfway through.
    db.exec('CREATE TABLE request_log (x INTEGER)');
    expect(() => migrate(db, file)).toThrow(/request_log already exists/);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
    db.close();
    expect(tables.map((t) => t.name)).toEqual(['request_log']);
  });

  it('turns foreign keys on for the connection', async () => {
    const store = openSqliteStore({ file });
    const key = themeKey('d'.repeat(64));
    // The store checks the product itself; the foreign key is what stops a key row for a missing
    // product if that check were ever skipped, seen here through replaceKey's insert.
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const keyId = await insertedKeyId(store, key);
    await expect(
      store.replaceKey(keyId, 'regeneration', { ...key, hash: 'e'.repeat(64), produit: 'nothing-here' }, [], 2),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect((await store.findKeyById(keyId))?.status).toBe('active');
    await store.close();
  });
});
