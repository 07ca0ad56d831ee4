import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '@licence/service';
import { storeContract } from '@licence/store-contract';
import { openSqliteStore } from './open-sqlite-store.js';
import { readRequestLog } from '../test/database-files.js';
import { insertedKeyId, themeKey } from '../test/theme-key.js';

storeContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'licence-store-'));
  const file = join(dir, 'licence.db');
  const store = openSqliteStore({ file });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
    loggedRows: async () => readRequestLog(file),
  };
});

/** A logger that keeps what it is given, to check what the store says (and never says). */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe('openSqliteStore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-store-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the missing parent folders of the file', async () => {
    const store = openSqliteStore({ file: join(dir, 'a', 'b', 'licence.db') });
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
  });

  it('keeps products, keys, domains and statuses across close and reopen', async () => {
    const file = join(dir, 'licence.db');
    const hash = 'b'.repeat(64);
    const first = openSqliteStore({ file });
    await first.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const keyId = await insertedKeyId(first, themeKey(hash, { sites: 2, createdAt: 2 }));
    expect(await first.bindDomain(keyId, 'exemple.fr', 2, 3)).toBe('bound');
    await first.logRequest({ at: 3, keyId, host: 'exemple.fr', ip: '203.0.113.9', outcome: 'ok', produit: 'theme' });
    const before = await first.findKeyByHash(hash);
    await first.close();

    const second = openSqliteStore({ file });
    expect(await second.findKeyByHash(hash)).toEqual(before);
    expect(await second.getProduct('theme')).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      createdAt: 1,
      staging: [],
    });
    expect(await second.bindDomain(keyId, 'exemple.fr', 2, 4)).toBe('already');
    expect(await second.purgeRequestLog(10)).toBe(1);
    await second.close();
  });

  it('closes idempotently', async () => {
    const store = openSqliteStore({ file: join(dir, 'licence.db') });
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('refuses a file that is not a SQLite database with one clear error', async () => {
    const file = join(dir, 'not-a-db.db');
    await writeFile(
      file,
      'this is not a database, it is a text file that is long enough to have a header\n'.repeat(20),
    );
    expect(() => openSqliteStore({ file })).toThrow(`${file}: cannot open the SQLite store: file is not a database`);
  });

  it('rejects a key id that is not one of its own instead of writing it', async () => {
    const store = openSqliteStore({ file: join(dir, 'licence.db') });
    await expect(store.bindDomain('abc', 'a.fr', 1, 1)).rejects.toThrow(
      'keyId: expected a key id of this store, got "abc"',
    );
    await expect(
      store.logRequest({ at: 1, keyId: '1.5', host: 'a.fr', ip: '::1', outcome: 'ok', produit: 'theme' }),
    ).rejects.toThrow(/keyId/);
    // A well-formed id of no key is refused by the foreign key (foreign_keys = ON).
    await expect(store.bindDomain('999', 'a.fr', 1, 1)).rejects.toThrow(/FOREIGN KEY/);
    await store.close();
  });

  it('logs the first migration, and never a hash', async () => {
    const logger = recordingLogger();
    const store = openSqliteStore({ file: join(dir, 'licence.db'), logger });
    const hash = 'c'.repeat(64);
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    await store.insertKey(themeKey(hash));
    await store.findKeyByHash(hash);
    await store.close();
    expect(logger.lines.some((line) => line.includes('schema migrated'))).toBe(true);
    expect(logger.lines.filter((line) => line.includes(hash))).toEqual([]);
  });
});

describe('openSqliteStore domain lists', () => {
  it('stores a domain listed twice once, at its first place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'licence-store-'));
    const store = openSqliteStore({ file: join(dir, 'licence.db') });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const key = { hint: 'AB12', produit: 'theme', kind: 'buyer', sites: 3, expiresAt: null, createdAt: 1 } as const;
    const keyId = await insertedKeyId(store, { ...key, hash: '1'.repeat(64) }, ['a.fr', 'b.fr', 'a.fr']);
    expect((await store.findKeyById(keyId))?.domains.map((d) => d.domain)).toEqual(['a.fr', 'b.fr']);
    const replaced = await store.replaceKey(keyId, 'transfert', { ...key, hash: '2'.repeat(64) }, ['c.fr', 'c.fr'], 2);
    if (replaced.result !== 'created') {
      throw new Error(`replaceKey: ${replaced.result}`);
    }
    expect((await store.findKeyById(replaced.id))?.domains.map((d) => d.domain)).toEqual(['c.fr']);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
});
