import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger } from '../test/harness.js';
import { createKeyAdmin } from './key-admin.js';
import { createMemoryStore } from './memory-store.js';
import { HttpError } from './problem.js';

/**
 * KeyAdmin without HTTP, as the `licence` CLI uses it. The HTTP routes over it are tested in
 * admin-routes.test.ts; here, what a direct caller relies on: plain objects in, JSON-ready
 * objects out, HttpError with a status and an exact detail on failure.
 */

/** A deterministic source: each call gives the next bytes, so keys are known in advance. */
function counterRandom() {
  let next = 0;
  return (length: number) => {
    next += 1;
    return new Uint8Array(length).fill(next);
  };
}

function setup() {
  const store = createMemoryStore();
  const clock = createTestClock();
  const logger = createTestLogger();
  return { store, clock, logger, admin: createKeyAdmin({ store, clock, logger, random: counterRandom() }) };
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('createKeyAdmin', () => {
  it('runs a key through its life: issue, show, transfer, revoke', async () => {
    const { admin } = setup();
    expect(await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' })).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
    });
    const issued = await admin.issueKey({ produit: 'theme', kind: 'buyer', sites: 2 });
    // Byte 1 everywhere: the second Crockford character, 25 times, in groups of five.
    expect(issued).toEqual({
      cle: '11111-11111-11111-11111-11111',
      hint: '1111',
      produit: 'theme',
      kind: 'buyer',
      sites: 2,
      expire: null,
    });
    expect(await admin.showKey(issued.cle)).toMatchObject({ hint: '1111', status: 'active', domains: [] });
    const moved = await admin.transferKey(issued.cle, { to: 'exemple.fr' });
    expect(moved).toEqual({ cle: '22222-22222-22222-22222-22222' });
    expect((await admin.showKey(moved.cle)).domains.map((entry) => entry.domain)).toEqual(['exemple.fr']);
    expect(await admin.revokeKey(moved.cle)).toMatchObject({ hint: '2222', status: 'revocation' });
    expect((await admin.installations('theme')).count).toBe(0);
  });

  it('fails with HttpError statuses a CLI can print', async () => {
    const { admin } = setup();
    expect((await failure(admin.issueKey({ produit: 'nope', kind: 'buyer' }))).status).toBe(404);
    expect((await failure(admin.showKey('ZZZZ'))).detail).toBe('no key ending in ZZZZ');
    expect((await failure(admin.installations('nope'))).status).toBe(404);
    expect((await failure(admin.addProduct())).detail).toBe('id: is required');
  });

  it('answers 503 when the store is down, keeping the cause', async () => {
    const { admin, store } = setup();
    await store.close();
    const error = await failure(admin.addProduct({ id: 'p', author: 'a', name: 'n' }));
    expect(error.status).toBe(503);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('purges with the twelve-month cut-off and says how many', async () => {
    const { admin, store, clock, logger } = setup();
    await store.logRequest({
      at: Math.floor(clock.nowMs / 1000) - 400 * 86400,
      keyId: null,
      host: 'a.fr',
      ip: '203.0.113.1',
    });
    await store.logRequest({
      at: Math.floor(clock.nowMs / 1000) - 300 * 86400,
      keyId: null,
      host: 'a.fr',
      ip: '203.0.113.2',
    });
    expect(await admin.purge()).toEqual({ erased: 1 });
    expect(logger.lines.at(-1)?.fields).toEqual({ action: 'purge', erased: 1, before: '2025-11-22T10:14:00Z' });
  });

  it('logs hints only', async () => {
    const { admin, logger } = setup();
    await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    const { cle } = await admin.issueKey({ produit: 'theme', kind: 'buyer' });
    await admin.regenerateKey(cle);
    expect(logger.text()).not.toContain('11111');
    expect(logger.text()).not.toContain('22222');
    expect(logger.lines.map((line) => line.fields.action)).toEqual(['product.add', 'key.issue', 'key.regenerate']);
  });
});
