import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres author tokens');

const HASH = 'ab'.repeat(32);

describe.skipIf(!postgres.available)('author tokens on PostgreSQL (docs/protocol.md#authors)', () => {
  let store: Store;

  beforeEach(async () => {
    store = await openPostgresStore({ connectionString: await postgres.cluster().createDatabase() });
    await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: 1 });
  });

  afterEach(async () => {
    await store.close();
  });

  it('refuses a second token with the same hash, in an error that does not name the hash', async () => {
    const token = { id: 'tok_1', authorId: 'alice', hash: HASH, label: null, createdAt: 2 };
    expect(await store.addAuthorToken(token)).toEqual({ result: 'created', id: 'tok_1' });
    const error = await store.addAuthorToken({ ...token, id: 'tok_2' }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/author_tokens_hash_key/);
    expect(String(error)).not.toContain(HASH);
    expect((await store.listAuthorTokens('alice')).map((listed) => listed.id)).toEqual(['tok_1']);
  });

  it('refuses a hash that is not 64 characters, naming the constraint, not the value', async () => {
    const short = 'cd'.repeat(20);
    const adding = store.addAuthorToken({ id: 'tok_3', authorId: 'alice', hash: short, label: 'ci', createdAt: 2 });
    await expect(adding).rejects.toThrow(/author_tokens_hash_check/);
    await expect(adding).rejects.not.toThrow(short);
    expect(await store.listAuthorTokens('alice')).toEqual([]);
  });
});
