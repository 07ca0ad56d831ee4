import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteStore } from './open-sqlite-store.js';
import { WAL_SIZE_LIMIT_BYTES } from './wal-size-limit.js';
import { themeKey } from '../test/theme-key.js';

const root = mkdtempSync(join(tmpdir(), 'licence-wal-limit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const walSize = (file: string): number => statSync(`${file}-wal`).size;

describe('journal_size_limit (wal-size-limit.ts, docs/protocol.md#storage)', () => {
  it('a store without the checkpoint thread cuts a WAL a burst grew, at its next writes', async () => {
    const file = join(root, 'store.db');
    const store = openSqliteStore({ file });
    // Another connection (another process's, in production) writes 80 MB in one transaction.
    const other = new Database(file);
    try {
      other.exec('CREATE TABLE filler (v BLOB)');
      const insert = other.prepare('INSERT INTO filler (v) VALUES (zeroblob(?))');
      other.transaction(() => {
        for (let i = 0; i < 80; i += 1) insert.run(1024 * 1024);
      })();
      expect(walSize(file)).toBeGreaterThan(64_000_000);
      // The first write's commit checkpoints (wal_autocheckpoint); the next one starts the WAL
      // again from its beginning and cuts the file to the limit.
      await store.addProduct({ id: 'theme', author: 'atelier', name: 'Theme', createdAt: 1, staging: [] });
      await store.insertKey(themeKey('0'.repeat(64)));
      await store.insertKey(themeKey('1'.repeat(64)));
      expect(walSize(file)).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
      expect(await store.findKeyByHash('1'.repeat(64))).not.toBeNull();
    } finally {
      other.close();
      await store.close();
    }
  });
});
