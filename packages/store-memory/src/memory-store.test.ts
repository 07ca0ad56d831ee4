import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import type { Store } from '@licence/service';
import { storeContract } from '@licence/store-contract';

type NewKey = Store.NewKey;

// The shared Store contract (src/testing/store-contract.ts), run against the reference store.
storeContract('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: async () => {}, loggedRows: async () => store.requestLog() };
});

const key = (hash: string, extra: Partial<NewKey> = {}): NewKey => ({
  hash,
  hint: hash.slice(-4).toUpperCase(),
  produit: 'theme',
  kind: 'buyer',
  sites: 1,
  expiresAt: null,
  createdAt: 100,
  ...extra,
});

async function withProducts() {
  const store = createMemoryStore();
  expect(await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] })).toEqual({
    result: 'created',
    id: 'theme',
  });
  expect(await store.addProduct({ id: 'plugin', author: 'alice', name: 'Plugin', createdAt: 1, staging: [] })).toEqual({
    result: 'created',
    id: 'plugin',
  });
  expect(await store.addProduct({ id: 'other', author: 'bob', name: 'Other', createdAt: 1, staging: [] })).toEqual({
    result: 'created',
    id: 'other',
  });
  return store;
}

async function insert(
  store: Awaited<ReturnType<typeof withProducts>>,
  newKey: NewKey,
  domains?: string[],
): Promise<string> {
  const result = await store.insertKey(newKey, domains);
  if (result.result !== 'created') throw new Error(result.result);
  return result.id;
}

describe('createMemoryStore (beyond the contract)', () => {
  it('keeps products and refuses a taken id', async () => {
    const store = await withProducts();
    expect(await store.addProduct({ id: 'theme', author: 'x', name: 'y', createdAt: 2, staging: [] })).toEqual({
      result: 'exists',
    });
    expect(await store.getProduct('theme')).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      createdAt: 1,
      staging: [],
    });
    expect(await store.getProduct('nope')).toBeNull();
  });

  it('stores keys by hash, with the products they open', async () => {
    const store = await withProducts();
    const buyer = await insert(store, key('aaaa'));
    const dev = await insert(store, key('dddd', { kind: 'dev', sites: 0 }));
    expect((await store.findKeyByHash('aaaa'))?.products).toEqual(['theme']);
    // docs/protocol.md#key-lifecycle: a dev key opens every product of its author, not another
    // author's.
    expect((await store.findKeyByHash('dddd'))?.products).toEqual(['theme', 'plugin']);
    expect((await store.findKeyById(buyer))?.hash).toBe('aaaa');
    expect((await store.findKeyById(dev))?.kind).toBe('dev');
    expect(await store.findKeyByHash('zzzz')).toBeNull();
    expect(await store.findKeyById('nope')).toBeNull();
  });

  it('refuses a key for an unknown product and a second live dev key', async () => {
    const store = await withProducts();
    expect(await store.insertKey(key('aaaa', { produit: 'nope' }))).toEqual({ result: 'no-product' });
    await insert(store, key('dddd', { kind: 'dev', sites: 0 }));
    expect(await store.insertKey(key('eeee', { kind: 'dev', sites: 0 }))).toEqual({ result: 'dev-exists' });
    // Another product of the same author may have its own dev key.
    expect((await store.insertKey(key('ffff', { kind: 'dev', sites: 0, produit: 'plugin' }))).result).toBe('created');
  });

  it('binds atomically up to the allowance', async () => {
    const store = await withProducts();
    const id = await insert(store, key('aaaa', { sites: 2 }));
    expect(await store.bindDomain(id, 'a.fr', 2, 200)).toBe('bound');
    expect(await store.bindDomain(id, 'a.fr', 2, 300)).toBe('already');
    const results = await Promise.all([store.bindDomain(id, 'b.fr', 2, 400), store.bindDomain(id, 'c.fr', 2, 400)]);
    expect(results.sort()).toEqual(['bound', 'full']);
    const stored = await store.findKeyById(id);
    expect(stored?.domains.map((entry) => entry.domain)).toEqual(['a.fr', 'b.fr']);
    expect(stored?.domains[0]).toEqual({ domain: 'a.fr', firstSeen: 200, lastSeen: 300 });
    await store.touchDomain(id, 'a.fr', 500);
    expect((await store.findKeyById(id))?.domains[0]?.lastSeen).toBe(500);
    await expect(store.bindDomain('nope', 'a.fr', 1, 1)).rejects.toThrow('memory store: no key with id "nope"');
  });

  it('hands out copies that cannot change the store', async () => {
    const store = await withProducts();
    const id = await insert(store, key('aaaa'), ['a.fr']);
    const stored = await store.findKeyById(id);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored?.domains)).toBe(true);
    expect(Object.isFrozen(stored?.domains[0])).toBe(true);
  });

  it('replaces an active key, carrying domains over with their times', async () => {
    const store = await withProducts();
    const old = await insert(store, key('aaaa', { sites: 2 }), ['a.fr', 'b.fr']);
    const replaced = await store.replaceKey(
      old,
      'transfert',
      key('bbbb', { sites: 2, createdAt: 900 }),
      ['b.fr', 'c.fr'],
      900,
    );
    if (replaced.result !== 'created') throw new Error(replaced.result);
    const before = await store.findKeyById(old);
    expect(before).toMatchObject({ status: 'transfert', endedAt: 900, replacedBy: replaced.id });
    const after = await store.findKeyById(replaced.id);
    expect(after?.domains).toEqual([
      { domain: 'b.fr', firstSeen: 100, lastSeen: 100 },
      { domain: 'c.fr', firstSeen: 900, lastSeen: 900 },
    ]);
    expect(await store.replaceKey(old, 'regeneration', key('cccc'), [], 901)).toEqual({ result: 'not-active' });
    expect(await store.findKeyByHash('cccc')).toBeNull();
  });

  it('revokes once', async () => {
    const store = await withProducts();
    const id = await insert(store, key('aaaa'));
    expect(await store.revokeKey(id, 'fraud', 500)).toBe('revoked');
    expect(await store.findKeyById(id)).toMatchObject({ status: 'revocation', endedAt: 500, reason: 'fraud' });
    expect(await store.revokeKey(id, null, 600)).toBe('not-active');
    expect(await store.revokeKey('nope', null, 600)).toBe('not-active');
  });

  it('lists installations of a product', async () => {
    const store = await withProducts();
    await insert(store, key('aaaa'), ['a.fr']);
    await insert(store, key('bbbb', { produit: 'other' }), ['b.fr']);
    const rows = await store.installations('theme');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ hint: 'AAAA', kind: 'buyer', status: 'active' });
    expect(rows[0]?.domains.map((entry) => entry.domain)).toEqual(['a.fr']);
  });

  it('refuses a duplicate hash', async () => {
    const store = await withProducts();
    await insert(store, key('aaaa'));
    await expect(store.insertKey(key('aaaa'))).rejects.toThrow('memory store: a key with this hash already exists');
  });

  it('refuses an author token whose id or hash is taken, and hands out tokens that cannot change it', async () => {
    const store = createMemoryStore();
    await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: 1 });
    const token = { id: 'tok_1', authorId: 'alice', hash: '1'.repeat(64), label: null, createdAt: 2 };
    expect(await store.addAuthorToken(token)).toEqual({ result: 'created', id: 'tok_1' });
    const clash = 'memory store: an author token with this id or hash already exists';
    await expect(store.addAuthorToken({ ...token, hash: '2'.repeat(64) })).rejects.toThrow(clash);
    await expect(store.addAuthorToken({ ...token, id: 'tok_2' })).rejects.toThrow(clash);
    const found = await store.findAuthorToken(token.hash);
    expect(Object.isFrozen(found)).toBe(true);
    expect(await store.listAuthorTokens('alice')).toHaveLength(1);
  });

  it('hands out webhook records that cannot change the store', async () => {
    const store = await withProducts();
    const events: ('key.issued' | 'key.revoked')[] = ['key.issued'];
    const endpoint = { id: 'wh_a', author: null, url: 'https://a.example/', events, createdAt: 1, secret: 'whsec_x' };
    await store.addWebhookEndpoint(endpoint);
    events.push('key.revoked');
    const record = await store.getWebhookEndpoint('wh_a');
    expect(record?.events).toEqual(['key.issued']);
    expect(Object.isFrozen(record) && Object.isFrozen(record?.events)).toBe(true);
    await store.addWebhookEvent({ id: 'msg_1', type: 'key.issued', produit: 'theme', at: 5, body: '{}', dedupe: null });
    const [claimed] = await store.claimWebhookDeliveries(5, 35, 1);
    expect(Object.isFrozen(claimed) && Object.isFrozen(claimed?.secrets)).toBe(true);
    await store.finishWebhookAttempt(
      claimed?.id ?? '',
      { at: 5, status: 500, error: null, durationMs: 1 },
      { status: 'failed' },
    );
    const [delivery] = await store.listWebhookDeliveries('wh_a', 1);
    expect(
      Object.isFrozen(delivery) && Object.isFrozen(delivery?.attempts) && Object.isFrozen(delivery?.attempts[0]),
    ).toBe(true);
  });

  it('refuses a webhook endpoint or event whose id is taken', async () => {
    const store = await withProducts();
    const endpoint = {
      id: 'wh_a',
      author: null,
      url: 'https://a.example/',
      events: ['key.issued'] as const,
      createdAt: 1,
    };
    await store.addWebhookEndpoint({ ...endpoint, secret: 'whsec_x' });
    await expect(store.addWebhookEndpoint({ ...endpoint, secret: 'whsec_y' })).rejects.toThrow(
      'memory store: a webhook endpoint with this id already exists',
    );
    const event = { id: 'msg_1', type: 'key.issued', produit: 'theme', at: 5, body: '{}', dedupe: null } as const;
    await expect(store.insertKey(key('aaaa'), [], [event, event])).rejects.toThrow(
      'memory store: a webhook event with this id already exists',
    );
    expect(await store.findKeyByHash('aaaa')).toBeNull();
  });

  it('answers ping until closed, then rejects every call', async () => {
    const store = await withProducts();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow('memory store: closed');
    await expect(store.findKeyByHash('aaaa')).rejects.toThrow('memory store: closed');
  });
});
