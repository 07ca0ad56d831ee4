import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SchemaVersionError } from '@licence/service';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from './migrations.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { insertedKeyId, themeKey } from '../test/theme-key.js';

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
        'request_log_ip_at',
      ]),
    );
  });

  it('applies nothing to a file already at the latest version, and keeps its data', async () => {
    const first = openSqliteStore({ file });
    await first.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1 });
    await first.close();
    const db = new Database(file);
    expect(migrate(db, file)).toBe(SCHEMA_VERSION);
    db.close();
    const second = openSqliteStore({ file });
    expect(await second.getProduct('theme')).toEqual({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1 });
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
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1 });
    const keyId = await insertedKeyId(store, key);
    await expect(
      store.replaceKey(keyId, 'regeneration', { ...key, hash: 'e'.repeat(64), produit: 'nothing-here' }, [], 2),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect((await store.findKeyById(keyId))?.status).toBe('active');
    await store.close();
  });
});
