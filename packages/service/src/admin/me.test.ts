import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger } from '../../test/harness.js';
import { createKeyAdmin } from './key-admin.js';
import { OPERATOR } from './types.js';
import { createMemoryStore } from '@licence/store-memory';

// docs/protocol.md#authors: `GET /admin/me` (through HTTP with a token: admin-auth.test.ts).

describe('me', () => {
  const options = () => ({
    store: createMemoryStore(),
    clock: createTestClock(),
    logger: createTestLogger(),
    random: (length: number) => new Uint8Array(length),
  });

  it('answers the operator, by default and when asked for', async () => {
    const shared = options();
    expect(await createKeyAdmin(shared).me()).toEqual({ role: 'operator' });
    expect(await createKeyAdmin(shared, OPERATOR).me()).toEqual({ role: 'operator' });
  });

  it('answers an author with its record, and AUTHOR_NOT_FOUND if the store lost it', async () => {
    const shared = options();
    await createKeyAdmin(shared).addAuthor({ id: 'alice', name: 'Alice' });
    const alice = createKeyAdmin(shared, { role: 'author', author: 'alice', tokenId: 'tok_x' });
    expect(await alice.me()).toEqual({
      role: 'author',
      author: { id: 'alice', name: 'Alice', created: '2026-11-22T10:14:00Z' },
    });
    const ghost = createKeyAdmin(shared, { role: 'author', author: 'ghost', tokenId: 'tok_y' });
    await expect(ghost.me()).rejects.toMatchObject({ code: 'AUTHOR_NOT_FOUND', message: 'no author ghost' });
  });
});
