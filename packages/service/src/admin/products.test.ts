import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger } from '../../test/harness.js';
import { AdminError } from './errors.js';
import { createKeyAdmin } from './key-admin.js';
import { createMemoryStore } from '@licence/store-memory';
import type { Principal } from './types.js';

/**
 * A product's name and staging host patterns (docs/protocol.md#staging-hosts) through key
 * administration, as the CLI calls it and as the admin routes do for a token's principal
 * (docs/protocol.md#authors), on the real memory store.
 */

const ALICE: Principal = { role: 'author', author: 'alice', tokenId: 'tok_alice' };

function setup() {
  const store = createMemoryStore();
  const logger = createTestLogger();
  const options = { store, clock: createTestClock(), logger, random: (length: number) => new Uint8Array(length) };
  return { store, logger, operator: createKeyAdmin(options), alice: createKeyAdmin(options, ALICE) };
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

describe('addProduct with staging patterns', () => {
  it('stores them normalised, each once, and shows them; none is []', async () => {
    const { store, operator } = setup();
    expect(
      await operator.addProduct({
        id: 'theme',
        author: 'alice',
        name: 'Theme',
        staging: ['*.Recette.fr.', 'staging-*.kinsta.cloud', '*.recette.fr'],
      }),
    ).toEqual({ id: 'theme', author: 'alice', name: 'Theme', staging: ['*.recette.fr', 'staging-*.kinsta.cloud'] });
    expect((await store.getProduct('theme'))?.staging).toEqual(['*.recette.fr', 'staging-*.kinsta.cloud']);
    expect(await operator.addProduct({ id: 'plugin', author: 'alice', name: 'Plugin' })).toMatchObject({ staging: [] });
    expect((await store.getProduct('plugin'))?.staging).toEqual([]);
  });

  it('refuses a bad pattern before storing anything, naming the field', async () => {
    const { store, operator } = setup();
    const error = await failure(operator.addProduct({ id: 'theme', author: 'a', name: 'T', staging: ['recette.*'] }));
    expect(error).toMatchObject({ code: 'INVALID_FIELD', errorClass: 'invalid' });
    expect(error.message).toMatch(/^staging: ./);
    expect(await store.getProduct('theme')).toBeNull();
  });
});

describe('updateProduct (PATCH /admin/products/:id)', () => {
  it('replaces each field given and keeps the others; [] clears the patterns', async () => {
    const { store, operator, logger } = setup();
    await operator.addProduct({ id: 'theme', author: 'alice', name: 'Theme', staging: ['*.recette.fr'] });
    expect(await operator.updateProduct('theme', { name: ' Thème ' })).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Thème',
      staging: ['*.recette.fr'],
    });
    expect(await operator.updateProduct('theme', { staging: ['Preview-*.Boutique.fr'] })).toMatchObject({
      name: 'Thème',
      staging: ['preview-*.boutique.fr'],
    });
    expect(await operator.updateProduct('theme', { staging: [] })).toMatchObject({ staging: [] });
    expect(await store.getProduct('theme')).toMatchObject({ name: 'Thème', staging: [], author: 'alice' });
    // The log line counts the patterns; it never needs more.
    expect(logger.lines.filter((line) => line.message === 'product updated').map((line) => line.fields)).toEqual([
      { action: 'product.update', produit: 'theme' },
      { action: 'product.update', produit: 'theme', staging: 1 },
      { action: 'product.update', produit: 'theme', staging: 0 },
    ]);
  });

  it('checks the fields first (400), then whether the principal reaches the product (404)', async () => {
    const { operator } = setup();
    await operator.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    const failing: [Promise<unknown>, string][] = [
      [operator.updateProduct('theme', {}), 'body: expected at least one of name, staging'],
      [operator.updateProduct('theme', { name: '  ' }), 'name: is empty'],
      [
        operator.updateProduct('Mon Theme', { name: 'x' }),
        'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
      ],
      [operator.updateProduct('nope', { name: 'x' }), 'no product nope'],
    ];
    for (const [promise, message] of failing) expect((await failure(promise)).message).toBe(message);
    const bad = await failure(operator.updateProduct('nope', { staging: ['a.*.fr'] }));
    expect(bad.code).toBe('INVALID_FIELD');
  });

  it("an author reaches its own products; another author's is the 404 of a missing one", async () => {
    const { store, operator, alice } = setup();
    await operator.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
    await operator.addProduct({ id: 'autre', author: 'bob', name: 'Autre' });
    expect(await alice.updateProduct('theme', { staging: ['*.recette.fr'] })).toMatchObject({
      staging: ['*.recette.fr'],
    });
    expect(await failure(alice.updateProduct('autre', { name: 'Vol' }))).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      errorClass: 'not-found',
      message: 'no product autre',
    });
    expect(await store.getProduct('autre')).toMatchObject({ name: 'Autre', staging: [] });
  });
});
