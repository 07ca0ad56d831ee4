import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { product, T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';

const DAY = 86400;

let hashes = 0;

/** A new buyer key of `produit` with a unique, well-formed SHA-256 hex (the store never sees the key). */
function buyerKey(produit = 'theme', createdAt = T0): Store.NewKey {
  hashes += 1;
  return {
    hash: hashes.toString(16).padStart(64, 'd'),
    hint: 'L1N3',
    produit,
    kind: 'buyer',
    sites: 1,
    expiresAt: null,
    createdAt,
  };
}

async function inserted(store: Store, key: Store.NewKey): Promise<string> {
  const outcome = await store.insertKey(key);
  if (outcome.result !== 'created') throw new Error(`insertKey: expected created, got ${outcome.result}`);
  return outcome.id;
}

async function replaced(
  store: Store,
  oldId: string,
  status: 'transfert' | 'regeneration',
  now: number,
  initiatedBy?: Store.KeyChangeInitiator,
): Promise<string> {
  const outcome = await store.replaceKey(oldId, status, buyerKey('theme', now), [], now, [], initiatedBy);
  if (outcome.result !== 'created') throw new Error(`replaceKey: expected created, got ${outcome.result}`);
  return outcome.id;
}

/** Lineage, endedBy and the count of buyer transfers (ports.ts `replaceKey`, `countBuyerTransfers`). */
export function lineageContract(context: ContractContext): void {
  describe('lineage, endedBy and countBuyerTransfers (docs/protocol.md#buyer-links)', () => {
    let store: Store;

    beforeEach(async () => {
      store = context.store();
      await store.addProduct(product('theme'));
    });

    it('gives a new key its own id as lineage, kept through a regeneration then a transfer', async () => {
      const first = await inserted(store, buyerKey());
      const unrelated = await inserted(store, buyerKey());
      expect(await store.findKeyById(first)).toMatchObject({ lineage: first, endedBy: null });
      expect((await store.findKeyById(unrelated))?.lineage).toBe(unrelated);
      const second = await replaced(store, first, 'regeneration', T0 + 10, 'author');
      const third = await replaced(store, second, 'transfert', T0 + 20, 'buyer');
      expect((await store.findKeyById(second))?.lineage).toBe(first);
      expect((await store.findKeyById(third))?.lineage).toBe(first);
      expect((await store.findKeyById(unrelated))?.lineage).toBe(unrelated);
    });

    it('records who ended a key as its endedBy, null when not said, and never on a revocation', async () => {
      const ended: Record<string, Store.KeyChangeInitiator | null> = {};
      for (const by of ['operator', 'author', 'buyer'] as const) {
        const id = await inserted(store, buyerKey());
        const next = await replaced(store, id, 'transfert', T0 + 5, by);
        ended[id] = by;
        expect((await store.findKeyById(next))?.endedBy).toBeNull();
      }
      const silent = await inserted(store, buyerKey());
      await replaced(store, silent, 'regeneration', T0 + 5);
      ended[silent] = null;
      for (const [id, by] of Object.entries(ended)) {
        expect((await store.findKeyById(id))?.endedBy).toBe(by);
      }
      const revoked = await inserted(store, buyerKey());
      expect(await store.revokeKey(revoked, 'refund', T0 + 5)).toBe('revoked');
      expect((await store.findKeyById(revoked))?.endedBy).toBeNull();
    });

    it('leaves endedBy alone when the replace is refused', async () => {
      const id = await inserted(store, buyerKey());
      await replaced(store, id, 'transfert', T0 + 5, 'operator');
      const again = await store.replaceKey(id, 'transfert', buyerKey(), [], T0 + 6, [], 'buyer');
      expect(again).toEqual({ result: 'not-active' });
      expect((await store.findKeyById(id))?.endedBy).toBe('operator');
      expect(await store.countBuyerTransfers(id, 0)).toBe(0);
    });

    it("counts only the buyer's transfers of that lineage at or after `since`", async () => {
      const first = await inserted(store, buyerKey());
      // Not counted: a regeneration (even by the buyer's hand), an operator's or an author's transfer.
      const a = await replaced(store, first, 'regeneration', T0 + DAY, 'buyer');
      const b = await replaced(store, a, 'transfert', T0 + 2 * DAY, 'operator');
      const c = await replaced(store, b, 'transfert', T0 + 3 * DAY, 'author');
      // Counted from T0 + 4 days: three buyer transfers.
      const d = await replaced(store, c, 'transfert', T0 + 4 * DAY, 'buyer');
      const e = await replaced(store, d, 'transfert', T0 + 5 * DAY, 'buyer');
      await replaced(store, e, 'transfert', T0 + 6 * DAY, 'buyer');
      // Another lineage's buyer transfer.
      const other = await inserted(store, buyerKey());
      await replaced(store, other, 'transfert', T0 + 5 * DAY, 'buyer');

      expect(await store.countBuyerTransfers(first, T0)).toBe(3);
      expect(await store.countBuyerTransfers(first, T0 + 4 * DAY)).toBe(3);
      expect(await store.countBuyerTransfers(first, T0 + 4 * DAY + 1)).toBe(2);
      expect(await store.countBuyerTransfers(first, T0 + 6 * DAY)).toBe(1);
      expect(await store.countBuyerTransfers(first, T0 + 6 * DAY + 1)).toBe(0);
      expect(await store.countBuyerTransfers(other, T0)).toBe(1);
      // A key's own id is not its lineage once it replaced another: nothing is counted under it.
      expect(await store.countBuyerTransfers(d, T0)).toBe(0);
      expect(await store.countBuyerTransfers('not-an-id', T0)).toBe(0);
    });
  });
}
