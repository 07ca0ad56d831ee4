import { describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { product, T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';

let hashes = 0;

/** A new buyer key of `theme` with a unique, well-formed SHA-256 hex (the store never sees the key). */
function buyerKey(): Store.NewKey {
  hashes += 1;
  return {
    hash: hashes.toString(16).padStart(64, 'e'),
    hint: 'S7G1',
    produit: 'theme',
    kind: 'buyer',
    sites: 1,
    expiresAt: null,
    createdAt: T0,
  };
}

async function inserted(store: Store, key: Store.NewKey): Promise<string> {
  const outcome = await store.insertKey(key);
  if (outcome.result !== 'created') throw new Error(`insertKey: expected created, got ${outcome.result}`);
  return outcome.id;
}

/** A product's staging patterns (ports.ts ProductRecord `staging`, `updateProduct`; docs/protocol.md#staging-hosts). */
export function stagingContract(context: ContractContext): void {
  describe('products: staging patterns and updateProduct (docs/protocol.md#staging-hosts)', () => {
    it('stores the patterns in their order through add, get and list', async () => {
      const store = context.store();
      const staged = product('theme', 'alice', T0, ['*.flywheelstaging.com', 'staging-*.example.org']);
      expect(await store.addProduct(staged)).toEqual({ result: 'created', id: 'theme' });
      await store.addProduct(product('plain', 'alice'));
      expect(await store.getProduct('theme')).toEqual(staged);
      expect(await store.getProduct('plain')).toEqual(product('plain', 'alice'));
      expect(await store.listProducts('alice')).toEqual([product('plain', 'alice'), staged]);
    });

    it('updates the name, the patterns, or both, and answers the product as stored', async () => {
      const store = context.store();
      await store.addProduct(product('theme', 'alice', T0, ['a.example']));
      const renamed = { ...product('theme', 'alice', T0, ['a.example']), name: 'Thème' };
      expect(await store.updateProduct('theme', { name: 'Thème' })).toEqual(renamed);
      const restaged = { ...renamed, staging: ['*.b.example', 'c.example'] };
      expect(await store.updateProduct('theme', { staging: ['*.b.example', 'c.example'] })).toEqual(restaged);
      const both = { ...restaged, name: 'Theme', staging: [] };
      expect(await store.updateProduct('theme', { name: 'Theme', staging: [] })).toEqual(both);
      expect(await store.getProduct('theme')).toEqual(both);
      // An empty change changes nothing.
      expect(await store.updateProduct('theme', {})).toEqual(both);
    });

    it('answers null for an unknown product and creates nothing', async () => {
      const store = context.store();
      expect(await store.updateProduct('nothing-here', { name: 'X', staging: ['x.example'] })).toBeNull();
      expect(await store.getProduct('nothing-here')).toBeNull();
      expect(await store.listProducts(null)).toEqual([]);
    });

    it("gives a key its own product's patterns, which follow that product's update", async () => {
      const store = context.store();
      await store.addProduct(product('theme', 'alice', T0, ['*.staging.example']));
      await store.addProduct(product('plugin', 'alice', T0, ['plugin.example']));
      const key = buyerKey();
      const id = await inserted(store, key);
      const dev = buyerKey();
      const devId = await inserted(store, { ...dev, kind: 'dev', sites: 0 });
      expect((await store.findKeyByHash(key.hash))?.staging).toEqual(['*.staging.example']);
      expect((await store.findKeyById(id))?.staging).toEqual(['*.staging.example']);
      // A dev key opens every product of its author, but carries its own product's patterns only.
      expect((await store.findKeyByHash(dev.hash))?.staging).toEqual(['*.staging.example']);
      await store.updateProduct('theme', { staging: ['new.example', '*.other.example'] });
      expect((await store.findKeyByHash(key.hash))?.staging).toEqual(['new.example', '*.other.example']);
      expect((await store.findKeyById(devId))?.staging).toEqual(['new.example', '*.other.example']);
      await store.updateProduct('theme', { staging: [] });
      expect((await store.findKeyById(id))?.staging).toEqual([]);
    });
  });
}
