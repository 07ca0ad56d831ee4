import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { product, T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';

function author(id: string, createdAt = T0): Store.AuthorRecord {
  return { id, name: `Author ${id}`, createdAt };
}

let hashes = 0;

/** A new token record with a unique, well-formed SHA-256 hex (the store never sees the token). */
function token(id: string, authorId: string, createdAt = T0, label: string | null = null): Store.NewAuthorToken {
  hashes += 1;
  return { id, authorId, hash: hashes.toString(16).padStart(64, 'b'), label, createdAt };
}

/** A token as listed: never the hash. */
function listed(added: Store.NewAuthorToken, lastUsedAt: number | null = null) {
  return { id: added.id, authorId: added.authorId, label: added.label, createdAt: added.createdAt, lastUsedAt };
}

/** The product list scoped by author (ports.ts `listProducts`, docs/protocol.md#authors). */
function productListContract(context: ContractContext): void {
  describe('listProducts (docs/protocol.md#authors)', () => {
    it("lists every product by id, or only one author's", async () => {
      const store = context.store();
      expect(await store.listProducts(null)).toEqual([]);
      await store.addProduct(product('theme', 'alice'));
      await store.addProduct(product('other', 'bob'));
      await store.addProduct(product('plugin', 'alice', T0 + 5));
      expect(await store.listProducts(null)).toEqual([
        product('other', 'bob'),
        product('plugin', 'alice', T0 + 5),
        product('theme', 'alice'),
      ]);
      expect(await store.listProducts('alice')).toEqual([
        product('plugin', 'alice', T0 + 5),
        product('theme', 'alice'),
      ]);
      expect(await store.listProducts('nobody')).toEqual([]);
    });

    it('gives the products made before their author existed to the author later made with that id', async () => {
      const store = context.store();
      await store.addProduct(product('theme', 'alice'));
      await store.addProduct(product('other', 'bob'));
      expect(await store.addAuthor(author('alice', T0 + 100))).toEqual({ result: 'created', id: 'alice' });
      expect(await store.listProducts('alice')).toEqual([product('theme', 'alice')]);
      // And products keep being created for an author id with no author record.
      await store.addProduct(product('later', 'carol', T0 + 200));
      expect(await store.listProducts('carol')).toEqual([product('later', 'carol', T0 + 200)]);
    });
  });
}

/** Authors (ports.ts `addAuthor`, `getAuthor`, `listAuthors`). */
function authorRecordContract(context: ContractContext): void {
  describe('authors (docs/protocol.md#authors)', () => {
    it("creates an author once, answers 'exists' for a taken id and keeps the first", async () => {
      const store = context.store();
      expect(await store.addAuthor(author('alice'))).toEqual({ result: 'created', id: 'alice' });
      expect(await store.addAuthor({ id: 'alice', name: 'Other', createdAt: T0 + 5 })).toEqual({ result: 'exists' });
      expect(await store.getAuthor('alice')).toEqual(author('alice'));
      expect(await store.getAuthor('nobody')).toBeNull();
    });

    it('lists every author by id', async () => {
      const store = context.store();
      expect(await store.listAuthors()).toEqual([]);
      await store.addAuthor(author('carol', T0));
      await store.addAuthor(author('alice', T0 + 10));
      await store.addAuthor(author('bob', T0 + 5));
      expect(await store.listAuthors()).toEqual([author('alice', T0 + 10), author('bob', T0 + 5), author('carol', T0)]);
    });
  });
}

/** Author tokens (ports.ts `addAuthorToken` ... `touchAuthorToken`), stored as hashes only. */
function authorTokenContract(context: ContractContext): void {
  describe('author tokens (docs/protocol.md#authors)', () => {
    let store: Store;

    beforeEach(async () => {
      store = context.store();
      await store.addAuthor(author('alice'));
      await store.addAuthor(author('bob'));
    });

    it('adds a token and finds it by hash, never handing the hash back', async () => {
      const added = token('tok_a1', 'alice', T0, 'shop');
      expect(await store.addAuthorToken(added)).toEqual({ result: 'created', id: 'tok_a1' });
      expect(await store.findAuthorToken(added.hash)).toEqual(listed(added));
      expect(await store.findAuthorToken('f'.repeat(64))).toBeNull();
    });

    it("answers 'no-author' for an unknown author and stores nothing", async () => {
      const orphan = token('tok_x', 'nobody');
      expect(await store.addAuthorToken(orphan)).toEqual({ result: 'no-author' });
      expect(await store.findAuthorToken(orphan.hash)).toBeNull();
      expect(await store.listAuthorTokens('nobody')).toEqual([]);
    });

    it("lists an author's tokens oldest first, then by id, and only theirs", async () => {
      const late = token('tok_a', 'alice', T0 + 20);
      const tieB = token('tok_c', 'alice', T0, 'laptop');
      const tieA = token('tok_b', 'alice', T0);
      const bobs = token('tok_0', 'bob', T0 - 5);
      for (const added of [late, tieB, tieA, bobs]) expect((await store.addAuthorToken(added)).result).toBe('created');
      expect(await store.listAuthorTokens('alice')).toEqual([listed(tieA), listed(tieB), listed(late)]);
      expect(await store.listAuthorTokens('bob')).toEqual([listed(bobs)]);
      expect(await store.listAuthorTokens('nobody')).toEqual([]);
    });

    it('touches a token: lastUsedAt moves, nothing else', async () => {
      const added = token('tok_a1', 'alice');
      await store.addAuthorToken(added);
      await store.touchAuthorToken('tok_a1', T0 + 60);
      expect(await store.findAuthorToken(added.hash)).toEqual(listed(added, T0 + 60));
      await store.touchAuthorToken('tok_a1', T0 + 120);
      expect(await store.listAuthorTokens('alice')).toEqual([listed(added, T0 + 120)]);
      // A token deleted between its request's authentication and the touch: nothing to do.
      await expect(store.touchAuthorToken('tok_gone', T0 + 180)).resolves.toBeUndefined();
    });

    it("deletes the author's own token only", async () => {
      const alices = token('tok_a1', 'alice');
      const bobs = token('tok_b1', 'bob');
      await store.addAuthorToken(alices);
      await store.addAuthorToken(bobs);
      expect(await store.deleteAuthorToken('alice', 'tok_b1')).toBe(false);
      expect(await store.findAuthorToken(bobs.hash)).toEqual(listed(bobs));
      expect(await store.deleteAuthorToken('alice', 'tok_missing')).toBe(false);
      expect(await store.deleteAuthorToken('alice', 'tok_a1')).toBe(true);
      expect(await store.findAuthorToken(alices.hash)).toBeNull();
      expect(await store.listAuthorTokens('alice')).toEqual([]);
      expect(await store.deleteAuthorToken('alice', 'tok_a1')).toBe(false);
      expect(await store.listAuthorTokens('bob')).toEqual([listed(bobs)]);
    });
  });
}

/** Authors, their tokens and the product list by author (docs/protocol.md#authors). */
export function authorsContract(context: ContractContext): void {
  productListContract(context);
  authorRecordContract(context);
  authorTokenContract(context);
}
