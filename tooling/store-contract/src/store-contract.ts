import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { activityContract } from './contract-activity.js';
import { authorsContract } from './contract-authors.js';
import { product, T0 } from './contract-context.js';
import type { ContractContext, StoredLogRow } from './contract-context.js';
import { lineageContract } from './contract-lineage.js';
import { stagingContract } from './contract-staging.js';
import { webhooksContract } from './contract-webhooks.js';

type NewKey = Store.NewKey;

export type { StoredLogRow } from './contract-context.js';

/** What `open` gives every test of the contract. */
export interface OpenedStore {
  readonly store: Store;
  /** Releases the storage; must accept a store that one test already closed. */
  readonly cleanup: () => Promise<void>;
  /** Every request-log row the storage holds, in any order, read around the port. */
  readonly loggedRows: () => Promise<readonly StoredLogRow[]>;
}

/**
 * The behaviour every Store must have (ports.ts, docs/protocol.md#verdict, #key-lifecycle,
 * #privacy, #authors, #activity, #webhooks), written against the port only, so one suite checks the SQLite
 * store and the PostgreSQL one alike.
 *
 * `open` gives a store on EMPTY, fresh storage for every test, a `cleanup` that releases it, and
 * `loggedRows`, the request log as the storage holds it (the one read around the port), outcome
 * included. One test closes the store itself, so `cleanup` must accept a store that is already
 * closed.
 *
 * ```ts
 * storeContract('sqlite', async () => {
 *   const dir = await mkdtemp(join(tmpdir(), 'licence-'));
 *   const file = join(dir, 'licence.db');
 *   const store = openSqliteStore({ file });
 *   return {
 *     store,
 *     cleanup: async () => { await store.close(); await rm(dir, { recursive: true }); },
 *     loggedRows: async () => readRequestLog(file),
 *   };
 * });
 * ```
 */
export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let cleanup: (() => Promise<void>) | undefined;
    let loggedRows: () => Promise<readonly StoredLogRow[]>;
    let hashes = 0;

    beforeEach(async () => {
      const opened = await open();
      store = opened.store;
      cleanup = opened.cleanup;
      loggedRows = opened.loggedRows;
    });

    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    /** A unique, well-formed SHA-256 hex (the store never sees a key, only this). */
    function nextHash(): string {
      hashes += 1;
      return hashes.toString(16).padStart(64, 'a');
    }

    function newKey(fields: Partial<NewKey> = {}): NewKey {
      return {
        hash: nextHash(),
        hint: 'K7Q2',
        produit: 'theme',
        kind: 'buyer',
        sites: 1,
        expiresAt: null,
        createdAt: T0,
        ...fields,
      };
    }

    async function created(key: NewKey, domains?: readonly string[]): Promise<string> {
      const outcome = await store.insertKey(key, domains);
      if (outcome.result !== 'created') {
        throw new Error(`insertKey: expected created, got ${outcome.result}`);
      }
      expect(typeof outcome.id).toBe('string');
      expect(outcome.id).not.toBe('');
      return outcome.id;
    }

    async function domainsOf(id: string): Promise<string[]> {
      const key = await store.findKeyById(id);
      if (key === null) {
        throw new Error(`findKeyById(${id}): no key`);
      }
      return key.domains.map((d) => d.domain);
    }

    describe('products', () => {
      it('creates a product once and reads it back', async () => {
        expect(await store.addProduct(product('theme'))).toEqual({ result: 'created', id: 'theme' });
        expect(await store.getProduct('theme')).toEqual(product('theme'));
      });

      it("answers 'exists' for a taken id and keeps the first product", async () => {
        await store.addProduct(product('theme'));
        expect(
          await store.addProduct({ id: 'theme', author: 'bob', name: 'Other', createdAt: T0 + 5, staging: [] }),
        ).toEqual({
          result: 'exists',
        });
        expect(await store.getProduct('theme')).toEqual(product('theme'));
      });

      it('answers null for an unknown product', async () => {
        expect(await store.getProduct('nothing-here')).toBeNull();
      });
    });

    describe('keys', () => {
      beforeEach(async () => {
        await store.addProduct(product('theme', 'alice'));
        await store.addProduct(product('plugin', 'alice'));
        await store.addProduct(product('other', 'bob'));
      });

      it('stores a buyer key and finds it by hash and by id, with every field', async () => {
        const key = newKey({ sites: 2 });
        const id = await created(key);
        const expected = {
          id,
          hash: key.hash,
          hint: 'K7Q2',
          produit: 'theme',
          kind: 'buyer',
          status: 'active',
          sites: 2,
          expiresAt: null,
          endedAt: null,
          reason: null,
          replacedBy: null,
          createdAt: T0,
          products: ['theme'],
          domains: [],
          lineage: id,
          endedBy: null,
          staging: [],
        };
        expect(await store.findKeyByHash(key.hash)).toEqual(expected);
        expect(await store.findKeyById(id)).toEqual(expected);
      });

      it('gives every key its own id', async () => {
        const a = await created(newKey());
        const b = await created(newKey());
        expect(a).not.toBe(b);
        expect((await store.findKeyById(a))?.id).toBe(a);
        expect((await store.findKeyById(b))?.id).toBe(b);
      });

      it('stores a trial key with its end', async () => {
        const key = newKey({ kind: 'trial', sites: 1, expiresAt: T0 + 86400 * 14 });
        await created(key);
        const found = await store.findKeyByHash(key.hash);
        expect(found?.kind).toBe('trial');
        expect(found?.expiresAt).toBe(T0 + 86400 * 14);
      });

      it('answers null for an unknown hash or id', async () => {
        const id = await created(newKey());
        expect(await store.findKeyByHash(nextHash())).toBeNull();
        expect(await store.findKeyById(`${id}0`)).toBeNull();
        expect(await store.findKeyById('not-an-id')).toBeNull();
        expect(await store.findKeyById('')).toBeNull();
      });

      it('stores initial domains in order, first and last seen at creation', async () => {
        const id = await created(newKey({ sites: 3, createdAt: T0 + 7 }), ['b.fr', 'a.fr']);
        expect((await store.findKeyById(id))?.domains).toEqual([
          { domain: 'b.fr', firstSeen: T0 + 7, lastSeen: T0 + 7 },
          { domain: 'a.fr', firstSeen: T0 + 7, lastSeen: T0 + 7 },
        ]);
      });

      it("answers 'no-product' for an unknown product and stores nothing", async () => {
        const key = newKey({ produit: 'nothing-here' });
        expect(await store.insertKey(key)).toEqual({ result: 'no-product' });
        expect(await store.findKeyByHash(key.hash)).toBeNull();
      });

      it('opens only its own product for a buyer key', async () => {
        const key = newKey({ produit: 'plugin' });
        await created(key);
        expect((await store.findKeyByHash(key.hash))?.products).toEqual(['plugin']);
      });

      it('opens every product of the author for a dev key, including products added later (docs/protocol.md#key-lifecycle)', async () => {
        const key = newKey({ kind: 'dev', sites: 0 });
        const id = await created(key);
        expect([...((await store.findKeyByHash(key.hash))?.products ?? [])].sort()).toEqual(['plugin', 'theme']);
        await store.addProduct(product('later', 'alice', T0 + 100));
        await store.addProduct(product('bobs-later', 'bob', T0 + 100));
        expect([...((await store.findKeyById(id))?.products ?? [])].sort()).toEqual(['later', 'plugin', 'theme']);
      });

      it("answers 'dev-exists' for a second live dev key of a product (docs/protocol.md#key-lifecycle)", async () => {
        await created(newKey({ kind: 'dev', sites: 0 }));
        const second = newKey({ kind: 'dev', sites: 0 });
        expect(await store.insertKey(second)).toEqual({ result: 'dev-exists' });
        expect(await store.findKeyByHash(second.hash)).toBeNull();
        // Per product: the author's other product may have its own.
        await created(newKey({ kind: 'dev', sites: 0, produit: 'plugin' }));
        // Buyer keys are not limited.
        await created(newKey());
        await created(newKey());
      });

      it('allows a new dev key once the live one is revoked', async () => {
        const first = await created(newKey({ kind: 'dev', sites: 0 }));
        expect(await store.revokeKey(first, null, T0 + 1)).toBe('revoked');
        await created(newKey({ kind: 'dev', sites: 0 }));
      });
    });

    describe('bindDomain and touchDomain (docs/protocol.md#verdict, rules 7 and 8)', () => {
      let keyId: string;

      beforeEach(async () => {
        await store.addProduct(product('theme'));
        keyId = await created(newKey({ sites: 2 }));
      });

      it("binds while slots are free, then answers 'full' and changes nothing", async () => {
        expect(await store.bindDomain(keyId, 'b.fr', 2, T0 + 10)).toBe('bound');
        expect(await store.bindDomain(keyId, 'a.fr', 2, T0 + 20)).toBe('bound');
        expect(await store.bindDomain(keyId, 'c.fr', 2, T0 + 30)).toBe('full');
        expect((await store.findKeyById(keyId))?.domains).toEqual([
          { domain: 'b.fr', firstSeen: T0 + 10, lastSeen: T0 + 10 },
          { domain: 'a.fr', firstSeen: T0 + 20, lastSeen: T0 + 20 },
        ]);
      });

      it("answers 'already' for a bound domain, updating last seen only", async () => {
        await store.bindDomain(keyId, 'a.fr', 2, T0 + 10);
        await store.bindDomain(keyId, 'b.fr', 2, T0 + 20);
        // A full key still answers 'already' for a domain it holds.
        expect(await store.bindDomain(keyId, 'a.fr', 2, T0 + 50)).toBe('already');
        expect((await store.findKeyById(keyId))?.domains).toEqual([
          { domain: 'a.fr', firstSeen: T0 + 10, lastSeen: T0 + 50 },
          { domain: 'b.fr', firstSeen: T0 + 20, lastSeen: T0 + 20 },
        ]);
      });

      it("uses the sites it is given: 0 is always 'full'", async () => {
        expect(await store.bindDomain(keyId, 'a.fr', 0, T0)).toBe('full');
        expect(await domainsOf(keyId)).toEqual([]);
      });

      it('binds per key: another key is not affected', async () => {
        const other = await created(newKey({ sites: 1 }));
        expect(await store.bindDomain(keyId, 'a.fr', 2, T0)).toBe('bound');
        expect(await store.bindDomain(other, 'a.fr', 1, T0)).toBe('bound');
        expect(await store.bindDomain(other, 'b.fr', 1, T0)).toBe('full');
        expect(await domainsOf(keyId)).toEqual(['a.fr']);
        expect(await domainsOf(other)).toEqual(['a.fr']);
      });

      it('binds exactly `sites` domains when 20 calls race (docs/protocol.md#verdict: binding is atomic)', async () => {
        const three = await created(newKey({ sites: 3 }));
        const domains = Array.from({ length: 20 }, (_, i) => `site-${i}.fr`);
        const results = await Promise.all(domains.map((d, i) => store.bindDomain(three, d, 3, T0 + i)));
        expect(results.filter((r) => r === 'bound')).toHaveLength(3);
        expect(results.filter((r) => r === 'full')).toHaveLength(17);
        const bound = await domainsOf(three);
        expect(bound).toHaveLength(3);
        expect(bound.sort()).toEqual(domains.filter((_, i) => results[i] === 'bound').sort());
      });

      it('binds one domain once when the same first call races', async () => {
        const one = await created(newKey({ sites: 1 }));
        const results = await Promise.all(Array.from({ length: 10 }, () => store.bindDomain(one, 'a.fr', 1, T0)));
        expect(results.filter((r) => r === 'bound')).toHaveLength(1);
        expect(results.filter((r) => r === 'already')).toHaveLength(9);
        expect(await domainsOf(one)).toEqual(['a.fr']);
      });

      it('touchDomain moves last seen of a bound domain and binds nothing', async () => {
        await store.bindDomain(keyId, 'a.fr', 2, T0 + 10);
        await store.touchDomain(keyId, 'a.fr', T0 + 99);
        await store.touchDomain(keyId, 'not-bound.fr', T0 + 99);
        expect((await store.findKeyById(keyId))?.domains).toEqual([
          { domain: 'a.fr', firstSeen: T0 + 10, lastSeen: T0 + 99 },
        ]);
      });
    });

    describe('replaceKey (docs/protocol.md#key-lifecycle: regenerate, transfer)', () => {
      let oldId: string;

      beforeEach(async () => {
        await store.addProduct(product('theme'));
        oldId = await created(newKey({ sites: 3 }));
        await store.bindDomain(oldId, 'a.fr', 3, T0 + 10);
        await store.bindDomain(oldId, 'b.fr', 3, T0 + 20);
        await store.touchDomain(oldId, 'b.fr', T0 + 25);
      });

      it('ends the old key and stores the new one with the domains, keeping first seen of carried-over ones', async () => {
        const next = newKey({ sites: 3, createdAt: T0 + 100 });
        const outcome = await store.replaceKey(oldId, 'transfert', next, ['b.fr', 'c.fr'], T0 + 100);
        if (outcome.result !== 'created') {
          throw new Error(`replaceKey: expected created, got ${outcome.result}`);
        }
        expect(outcome.id).not.toBe(oldId);

        const old = await store.findKeyById(oldId);
        expect(old?.status).toBe('transfert');
        expect(old?.endedAt).toBe(T0 + 100);
        expect(old?.replacedBy).toBe(outcome.id);
        expect(old?.reason).toBeNull();
        // The old key's own record is history: its domains stay as they were.
        expect(old?.domains.map((d) => d.domain)).toEqual(['a.fr', 'b.fr']);

        const fresh = await store.findKeyByHash(next.hash);
        expect(fresh).toMatchObject({
          id: outcome.id,
          status: 'active',
          produit: 'theme',
          kind: 'buyer',
          sites: 3,
          createdAt: T0 + 100,
          endedAt: null,
          replacedBy: null,
        });
        expect(fresh?.domains).toEqual([
          { domain: 'b.fr', firstSeen: T0 + 20, lastSeen: T0 + 25 },
          { domain: 'c.fr', firstSeen: T0 + 100, lastSeen: T0 + 100 },
        ]);
      });

      it("records 'regeneration' for a regenerated key", async () => {
        const outcome = await store.replaceKey(oldId, 'regeneration', newKey({ sites: 3 }), ['a.fr', 'b.fr'], T0 + 50);
        expect(outcome.result).toBe('created');
        expect((await store.findKeyById(oldId))?.status).toBe('regeneration');
      });

      it('regenerates a dev key (the one live dev key moves to the new key)', async () => {
        const dev = await created(newKey({ kind: 'dev', sites: 0 }));
        const next = newKey({ kind: 'dev', sites: 0 });
        expect((await store.replaceKey(dev, 'regeneration', next, [], T0 + 5)).result).toBe('created');
        expect((await store.findKeyByHash(next.hash))?.status).toBe('active');
        expect(await store.insertKey(newKey({ kind: 'dev', sites: 0 }))).toEqual({ result: 'dev-exists' });
      });

      it("answers 'not-active' on a second replace and changes nothing", async () => {
        const first = await store.replaceKey(oldId, 'regeneration', newKey({ sites: 3 }), ['a.fr'], T0 + 100);
        expect(first.result).toBe('created');
        const before = await store.findKeyById(oldId);
        const again = newKey({ sites: 3 });
        expect(await store.replaceKey(oldId, 'transfert', again, ['z.fr'], T0 + 200)).toEqual({ result: 'not-active' });
        expect(await store.findKeyById(oldId)).toEqual(before);
        expect(await store.findKeyByHash(again.hash)).toBeNull();
      });

      it("answers 'not-active' for a revoked key", async () => {
        await store.revokeKey(oldId, 'refund', T0 + 30);
        const next = newKey();
        expect(await store.replaceKey(oldId, 'regeneration', next, [], T0 + 40)).toEqual({ result: 'not-active' });
        expect(await store.findKeyByHash(next.hash)).toBeNull();
        expect((await store.findKeyById(oldId))?.status).toBe('revocation');
      });

      it('is atomic: a new key that cannot be stored leaves the old one active', async () => {
        const taken = await store.findKeyById(oldId);
        const clash = newKey({ hash: taken?.hash ?? nextHash() });
        await expect(store.replaceKey(oldId, 'regeneration', clash, ['a.fr'], T0 + 60)).rejects.toThrow();
        const after = await store.findKeyById(oldId);
        expect(after?.status).toBe('active');
        expect(after?.endedAt).toBeNull();
        expect(after?.replacedBy).toBeNull();
      });
    });

    describe('revokeKey (docs/protocol.md#key-lifecycle)', () => {
      let keyId: string;

      beforeEach(async () => {
        await store.addProduct(product('theme'));
        keyId = await created(newKey());
        await store.bindDomain(keyId, 'a.fr', 1, T0 + 1);
      });

      it("revokes an active key and keeps the reason; a second revoke is 'not-active'", async () => {
        expect(await store.revokeKey(keyId, 'chargeback', T0 + 10)).toBe('revoked');
        const revoked = await store.findKeyById(keyId);
        expect(revoked).toMatchObject({
          status: 'revocation',
          endedAt: T0 + 10,
          reason: 'chargeback',
          replacedBy: null,
        });
        expect(revoked?.domains.map((d) => d.domain)).toEqual(['a.fr']);
        expect(await store.revokeKey(keyId, 'again', T0 + 20)).toBe('not-active');
        expect(await store.findKeyById(keyId)).toMatchObject({ endedAt: T0 + 10, reason: 'chargeback' });
      });

      it('accepts no reason', async () => {
        expect(await store.revokeKey(keyId, null, T0 + 10)).toBe('revoked');
        expect((await store.findKeyById(keyId))?.reason).toBeNull();
      });

      it("answers 'not-active' for a replaced key and an unknown id", async () => {
        await store.replaceKey(keyId, 'regeneration', newKey(), ['a.fr'], T0 + 5);
        expect(await store.revokeKey(keyId, 'late', T0 + 10)).toBe('not-active');
        expect((await store.findKeyById(keyId))?.status).toBe('regeneration');
        expect(await store.revokeKey('not-an-id', null, T0)).toBe('not-active');
      });
    });

    describe('installations (docs/protocol.md#administration)', () => {
      it('lists every key of the product with its bound domains, and only those', async () => {
        await store.addProduct(product('theme'));
        await store.addProduct(product('plugin'));
        const key = newKey({ sites: 2 });
        const a = await created(key);
        await store.bindDomain(a, 'a.fr', 2, T0 + 1);
        await store.bindDomain(a, 'b.fr', 2, T0 + 2);
        const b = await created(newKey({ hint: 'ZZ99' }));
        await store.revokeKey(b, null, T0 + 3);
        const dev = await created(newKey({ kind: 'dev', sites: 0, hint: 'DEV1' }));
        await created(newKey({ produit: 'plugin' }));

        const list = await store.installations('theme');
        const byId = new Map(list.map((i) => [i.keyId, i]));
        expect(list).toHaveLength(3);
        expect(byId.get(a)).toEqual({
          keyId: a,
          hint: 'K7Q2',
          kind: 'buyer',
          status: 'active',
          domains: [
            { domain: 'a.fr', firstSeen: T0 + 1, lastSeen: T0 + 1 },
            { domain: 'b.fr', firstSeen: T0 + 2, lastSeen: T0 + 2 },
          ],
        });
        expect(byId.get(b)).toEqual({ keyId: b, hint: 'ZZ99', kind: 'buyer', status: 'revocation', domains: [] });
        expect(byId.get(dev)).toMatchObject({ kind: 'dev', status: 'active', domains: [] });
      });

      it('answers an empty list for a product without keys or an unknown product', async () => {
        await store.addProduct(product('theme'));
        expect(await store.installations('theme')).toEqual([]);
        expect(await store.installations('nothing-here')).toEqual([]);
      });
    });

    describe('request log and purge (docs/protocol.md#privacy)', () => {
      /** The stored log, oldest first, as `{at, host, ip}`. */
      async function stored(): Promise<Pick<StoredLogRow, 'at' | 'host' | 'ip'>[]> {
        const rows = (await loggedRows()).map(({ at, host, ip }) => ({ at, host, ip }));
        return rows.sort((a, b) => a.at - b.at || a.host.localeCompare(b.host));
      }

      it('deletes the entries logged before the cut, IPs and all, keeps later ones, counts right, keeps keys and domains', async () => {
        await store.addProduct(product('theme'));
        const keyId = await created(newKey({ sites: 1 }));
        await store.bindDomain(keyId, 'a.fr', 1, T0);
        const entries: Store.RequestLogEntry[] = [
          { at: T0 - 400, keyId, host: 'a.fr', ip: '203.0.113.7', outcome: 'ok', produit: 'theme' },
          { at: T0 - 300, keyId: null, host: 'b.fr', ip: '2001:db8::1', outcome: 'inconnue', produit: null },
          { at: T0 - 100, keyId, host: 'shop.a.fr', ip: '198.51.100.2', outcome: 'autre_domaine', produit: 'theme' },
          { at: T0, keyId, host: 'a.fr', ip: '203.0.113.7', outcome: 'ok', produit: 'theme' },
        ];
        for (const entry of entries) {
          await store.logRequest(entry);
        }
        const keyBefore = await store.findKeyById(keyId);
        expect(await stored()).toHaveLength(4);

        // Strictly before the cut: the entry AT the cut stays, with its IP.
        expect(await store.purgeRequestLog(T0 - 100)).toBe(2);
        expect(await stored()).toEqual([
          { at: T0 - 100, host: 'shop.a.fr', ip: '198.51.100.2' },
          { at: T0, host: 'a.fr', ip: '203.0.113.7' },
        ]);
        // Deleted ones are not counted again.
        expect(await store.purgeRequestLog(T0 - 100)).toBe(0);
        // A later cut deletes exactly the later entries.
        expect(await store.purgeRequestLog(T0 + 1)).toBe(2);
        expect(await stored()).toEqual([]);
        expect(await store.purgeRequestLog(T0 + 1_000_000)).toBe(0);
        // The key, its status and its bound domains are not the log: they stay.
        expect(await store.findKeyById(keyId)).toEqual(keyBefore);
      });

      it('logs again after a purge, and a later purge counts only the new entries', async () => {
        await store.logRequest({
          at: T0 - 10,
          keyId: null,
          host: 'a.fr',
          ip: '203.0.113.1',
          outcome: 'inconnue',
          produit: null,
        });
        expect(await store.purgeRequestLog(T0)).toBe(1);
        await store.logRequest({
          at: T0 + 10,
          keyId: null,
          host: 'b.fr',
          ip: '203.0.113.2',
          outcome: 'inconnue',
          produit: null,
        });
        await store.logRequest({
          at: T0 + 20,
          keyId: null,
          host: 'c.fr',
          ip: '203.0.113.3',
          outcome: 'inconnue',
          produit: null,
        });
        expect(await stored()).toEqual([
          { at: T0 + 10, host: 'b.fr', ip: '203.0.113.2' },
          { at: T0 + 20, host: 'c.fr', ip: '203.0.113.3' },
        ]);
        expect(await store.purgeRequestLog(T0 + 15)).toBe(1);
        expect(await stored()).toEqual([{ at: T0 + 20, host: 'c.fr', ip: '203.0.113.3' }]);
      });

      it('answers 0 when there is nothing to purge', async () => {
        expect(await store.purgeRequestLog(T0)).toBe(0);
        expect(await stored()).toEqual([]);
      });
    });

    const context: ContractContext = { store: () => store, loggedRows: () => loggedRows() };
    activityContract(context);
    authorsContract(context);
    webhooksContract(context);
    stagingContract(context);
    lineageContract(context);

    describe('ping and close', () => {
      it('pings an open store, and rejects (never throws synchronously) once it is closed', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await store.close();
        const ping = store.ping();
        expect(ping).toBeInstanceOf(Promise);
        await expect(ping).rejects.toThrow();
        await expect(store.findKeyByHash(nextHash())).rejects.toThrow();
      });
    });
  });
}
