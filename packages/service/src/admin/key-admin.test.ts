import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger } from '../../test/harness.js';
import { AdminError } from './errors.js';
import { createKeyAdmin } from './key-admin.js';
import { createMemoryStore } from '@licence/store-memory';

/**
 * KeyAdmin without HTTP, as the `licence` CLI uses it. The HTTP routes over it are tested in
 * admin-routes.test.ts; here, what a direct caller relies on: typed inputs in, JSON-ready
 * objects out, an AdminError with its code, class and exact message on failure.
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

async function failure(promise: Promise<unknown>): Promise<AdminError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AdminError) return error;
    throw error;
  }
  throw new Error('expected an AdminError');
}

describe('createKeyAdmin', () => {
  it('runs a key through its life: issue, show, transfer, revoke', async () => {
    const { admin } = setup();
    expect(await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' })).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      staging: [],
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
    // Byte 2 went to the id of the key.issued event (docs/protocol.md#webhooks), so byte 3 here.
    expect(moved).toEqual({ cle: '33333-33333-33333-33333-33333' });
    expect((await admin.showKey(moved.cle)).domains.map((entry) => entry.domain)).toEqual(['exemple.fr']);
    expect(await admin.revokeKey(moved.cle)).toMatchObject({ hint: '3333', status: 'revocation' });
    expect((await admin.installations('theme')).count).toBe(0);
  });

  it('fails with domain errors a CLI can print: not found, invalid, conflict', async () => {
    const { admin } = setup();
    expect(await failure(admin.issueKey({ produit: 'nope', kind: 'buyer' }))).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      errorClass: 'not-found',
      message: 'no product nope',
    });
    expect((await failure(admin.showKey('ZZZZ'))).message).toBe('no key ending in ZZZZ');
    expect((await failure(admin.installations('nope'))).errorClass).toBe('not-found');
    expect(await failure(admin.addProduct({ id: 'Mon Theme', author: 'a', name: 'n' }))).toMatchObject({
      code: 'INVALID_FIELD',
      errorClass: 'invalid',
      message: 'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
    });
    await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    expect(await failure(admin.addProduct({ id: 'theme', author: 'bob', name: 'x' }))).toMatchObject({
      code: 'PRODUCT_EXISTS',
      errorClass: 'conflict',
      message: 'product id theme is taken; product ids are one namespace for the whole service',
    });
  });

  it('checks typed inputs with the same rules and messages as the admin API', async () => {
    const { admin, clock } = setup();
    await admin.addProduct({ id: 'theme', author: '  alice ', name: 'Theme' });
    const nowSeconds = Math.floor(clock.nowMs / 1000);
    const failing: [Promise<unknown>, string][] = [
      [admin.addProduct({ id: 'p', author: ' ', name: 'n' }), 'author: is empty'],
      [admin.issueKey({ produit: 'theme', kind: 'buyer', sites: 0 }), 'sites: expected an integer from 1 to 1000'],
      [
        admin.issueKey({ produit: 'theme', kind: 'dev', sites: 1 }),
        'sites: a dev key binds no domain; leave sites out',
      ],
      [admin.issueKey({ produit: 'theme', kind: 'trial' }), 'expire: is required for a trial key'],
      [admin.issueKey({ produit: 'theme', kind: 'trial', expire: nowSeconds }), 'expire: must be in the future'],
      [
        admin.issueKey({ produit: 'theme', kind: 'buyer', expire: nowSeconds + 60 }),
        'expire: only a trial key has an end; leave expire out for a buyer key',
      ],
      [admin.showKey('---'), 'cle: holds no letter or digit'],
      [admin.installations('N O'), 'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"'],
    ];
    for (const [promise, message] of failing) {
      expect(await failure(promise)).toMatchObject({ code: 'INVALID_FIELD', message });
    }
    const { cle } = await admin.issueKey({ produit: 'theme', kind: 'buyer' });
    expect((await failure(admin.transferKey(cle, { to: 'localhost' }))).message).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    expect((await failure(admin.revokeKey(cle, { reason: 'x'.repeat(1001) }))).message).toBe(
      'reason: expected at most 1000 characters, got 1001',
    );
  });

  it('takes a trial end as seconds or as a Date', async () => {
    const { admin } = setup();
    await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    const end = Date.parse('2027-01-31T12:00:00Z');
    expect(await admin.issueKey({ produit: 'theme', kind: 'trial', expire: end / 1000 })).toMatchObject({
      expire: '2027-01-31T12:00:00Z',
    });
    expect(await admin.issueKey({ produit: 'theme', kind: 'trial', expire: new Date(end + 999) })).toMatchObject({
      expire: '2027-01-31T12:00:00Z',
    });
  });

  it('is unavailable when the store is down, keeping the cause', async () => {
    const { admin, store } = setup();
    await store.close();
    const error = await failure(admin.addProduct({ id: 'p', author: 'a', name: 'n' }));
    expect(error).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      errorClass: 'unavailable',
      message: 'the key store is unavailable; try again later',
    });
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('purges with the twelve-month cut-off and says how many', async () => {
    const { admin, store, clock, logger } = setup();
    await store.logRequest({
      at: Math.floor(clock.nowMs / 1000) - 400 * 86400,
      keyId: null,
      host: 'a.fr',
      ip: '203.0.113.1',
      outcome: 'inconnue',
      produit: null,
    });
    await store.logRequest({
      at: Math.floor(clock.nowMs / 1000) - 300 * 86400,
      keyId: null,
      host: 'a.fr',
      ip: '203.0.113.2',
      outcome: 'inconnue',
      produit: null,
    });
    expect(await admin.purge()).toEqual({ erased: 1 });
    // One line for the purge (docs/protocol.md#webhooks: events are kept 30 days).
    expect(logger.lines.filter((line) => line.fields.action === 'purge').map((line) => line.fields)).toEqual([
      {
        action: 'purge',
        erased: 1,
        before: '2025-11-22T10:14:00Z',
        webhookEvents: 0,
        webhookEventsBefore: '2026-10-23T10:14:00Z',
      },
    ]);
    expect(logger.lines.filter((line) => String(line.fields.action).startsWith('purge'))).toHaveLength(1);
  });

  it('logs hints only', async () => {
    const { admin, logger } = setup();
    await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    const { cle } = await admin.issueKey({ produit: 'theme', kind: 'buyer' });
    const fresh = await admin.regenerateKey(cle);
    expect(fresh.cle).toBe('33333-33333-33333-33333-33333');
    expect(logger.text()).not.toContain('11111');
    expect(logger.text()).not.toContain('33333');
    expect(logger.lines.map((line) => line.fields.action)).toEqual(['product.add', 'key.issue', 'key.regenerate']);
  });
});
