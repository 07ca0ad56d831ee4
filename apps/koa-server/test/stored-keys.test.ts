import { createHash } from 'node:crypto';
import { normalizeKey } from '@licence/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall } from '@licence/http-vector-runner';
import { openSqliteFile } from './sqlite-file.js';
import { startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * docs/protocol.md#key-lifecycle: keys are stored as SHA-256 of the normalised key plus the last
 * four characters for display; the full key is shown once, at issue. Keys issued, regenerated and
 * transferred over the real admin API, then the SQLite file read directly: no column of any row of
 * `keys` holds a key, in its normalised or its formatted form.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const admin = (path: string, body?: unknown) => adminCall(server, 'POST', path, body);

function cleOf(answer: Record<string, unknown>): string {
  if (typeof answer.cle !== 'string') throw new Error('no cle');
  return answer.cle;
}

const sha256hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('keys at rest in the SQLite file (docs/protocol.md#key-lifecycle)', () => {
  it('holds each key as its SHA-256 and last four characters, never the key itself', async () => {
    await admin('/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
    const buyer = cleOf(await admin('/admin/keys', { produit: 'theme', kind: 'buyer', sites: 2 }));
    const trial = cleOf(
      await admin('/admin/keys', { produit: 'theme', kind: 'trial', expire: '2099-01-01T00:00:00Z' }),
    );
    const dev = cleOf(await admin('/admin/keys', { produit: 'theme', kind: 'dev' }));
    const regenerated = cleOf(await admin(`/admin/keys/${buyer}/regenerate`));
    const transferred = cleOf(await admin(`/admin/keys/${trial}/transfer`));
    const keys = [buyer, trial, dev, regenerated, transferred];

    const db = openSqliteFile(server.dbFile);
    let rows: Record<string, unknown>[];
    try {
      rows = db.prepare('SELECT * FROM keys').all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
    expect(rows).toHaveLength(keys.length);

    for (const cle of keys) {
      const normalised = normalizeKey(cle);
      // Found by the hash of its normalised form, with the last four as its hint.
      expect(rows.filter((row) => row.hash === sha256hex(normalised)).map((row) => row.hint)).toEqual([
        normalised.slice(-4),
      ]);
      // No column of any row equals, or even contains, the key in either form.
      for (const row of rows) {
        for (const value of Object.values(row)) {
          const text = String(value);
          expect(text).not.toBe(normalised);
          expect(text).not.toBe(cle);
          expect(text).not.toContain(normalised);
          expect(text).not.toContain(cle);
        }
      }
    }
  });
});
