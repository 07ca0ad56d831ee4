import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger } from '../../test/harness.js';
import { AdminError } from './errors.js';
import { createKeyAdmin } from './key-admin.js';
import { changedMeanwhile, findKey, callOrStoreUnavailable, requireAlive } from './keys.js';
import { createMemoryStore } from '@licence/store-memory';
import type { StoredKey } from '../ports/index.js';

const NOW = 1_800_000_000;

describe('what the key operations share (docs/protocol.md#key-lifecycle)', () => {
  it('requireAlive and changedMeanwhile: conflicts naming the hint only', () => {
    const stored: StoredKey = {
      id: 'k1',
      hash: 'h',
      hint: 'ABCD',
      produit: 'theme',
      kind: 'buyer',
      status: 'transfert',
      sites: 1,
      expiresAt: null,
      endedAt: NOW,
      reason: null,
      replacedBy: 'k2',
      createdAt: NOW - 60,
      products: ['theme'],
      domains: [],
      lineage: 'k1',
      endedBy: null,
      staging: [],
    };
    expect(() => requireAlive(stored, NOW)).toThrow('key ABCD is no longer alive (transfert)');
    expect(() => requireAlive({ ...stored, status: 'active' }, NOW)).not.toThrow();
    expect(changedMeanwhile(stored)).toMatchObject({
      code: 'KEY_NOT_ALIVE',
      errorClass: 'conflict',
      message: 'key ABCD is no longer alive (changed meanwhile)',
    });
  });

  it('findKey: any spelling; an unknown key is not found by its hint, a malformed one invalid', async () => {
    const store = createMemoryStore();
    await expect(findKey(store, 'zzzzz-zzzzz')).rejects.toMatchObject({
      code: 'KEY_NOT_FOUND',
      message: 'no key ending in ZZZZ',
    });
    await expect(findKey(store, '---')).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      message: 'cle: holds no letter or digit',
    });
  });

  it('callOrStoreUnavailable: a rejection is STORE_UNAVAILABLE with its cause', async () => {
    const cause = new Error('disk full');
    const error: unknown = await callOrStoreUnavailable(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminError);
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', cause });
    expect(await callOrStoreUnavailable(() => Promise.resolve(7))).toBe(7);
  });

  it('a key another action replaced or revoked meanwhile is a conflict, not a second success', async () => {
    const memory = createMemoryStore();
    const options = {
      clock: createTestClock(),
      logger: createTestLogger(),
      random: (length: number) => new Uint8Array(length).fill(3),
    };
    await createKeyAdmin({ ...options, store: memory }).addProduct({ id: 'theme', author: 'a', name: 'n' });
    const { cle } = await createKeyAdmin({ ...options, store: memory }).issueKey({ produit: 'theme', kind: 'buyer' });
    // The key is read alive, then the write finds it no longer active: what a racing action leaves.
    const racing = createKeyAdmin({
      ...options,
      store: { ...memory, revokeKey: async () => 'not-active', replaceKey: async () => ({ result: 'not-active' }) },
    });
    const hint = cle.replace(/-/g, '').slice(-4);
    for (const attempt of [racing.revokeKey(cle), racing.regenerateKey(cle), racing.transferKey(cle)]) {
      await expect(attempt).rejects.toMatchObject({ message: `key ${hint} is no longer alive (changed meanwhile)` });
    }
  });
});
