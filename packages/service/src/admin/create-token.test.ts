import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorWithToken, call } from '../../test/authors.js';
import { admin, adminRequest, createHarness, createTestClock, createTestLogger, json } from '../../test/harness.js';
import { AdminError } from './errors.js';
import { createKeyAdmin } from './key-admin.js';
import { createMemoryStore } from '@licence/store-memory';

// docs/protocol.md#authors: an author's tokens, made, listed and deleted by the operator or by
// that author's own token; shown once, stored as SHA-256.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('createAuthorToken', () => {
  it('makes lat_ + 43 base64url characters from 32 random bytes, and a tok_ id; stores only the hash', async () => {
    const store = createMemoryStore();
    const sizes: number[] = [];
    const random = (length: number) => {
      sizes.push(length);
      return new Uint8Array(length).fill(sizes.length === 1 ? 0xfb : 0x01);
    };
    const clock = createTestClock();
    const keyAdmin = createKeyAdmin({ store, clock, logger: createTestLogger(), random });
    await keyAdmin.addAuthor({ id: 'alice', name: 'Alice' });
    const made = await keyAdmin.createAuthorToken('alice', { label: ' shop ' });
    expect(sizes).toEqual([32, 12]);
    expect(made).toEqual({ token: `lat_${'-_v7'.repeat(10)}-_s`, id: `tok_${'AQEB'.repeat(4)}` });
    expect(made.token).toMatch(/^lat_[A-Za-z0-9_-]{43}$/);
    expect(await store.findAuthorToken(sha256(made.token))).toEqual({
      id: made.id,
      authorId: 'alice',
      label: 'shop',
      createdAt: Math.floor(clock.nowMs / 1000),
      lastUsedAt: null,
    });
    expect(await store.findAuthorToken(made.token)).toBeNull();
  });

  it('refuses an unknown author, and a bad label', async () => {
    const keyAdmin = createKeyAdmin({
      store: createMemoryStore(),
      clock: createTestClock(),
      logger: createTestLogger(),
      random: (length) => new Uint8Array(length),
    });
    await expect(keyAdmin.createAuthorToken('nobody')).rejects.toThrow(
      new AdminError('AUTHOR_NOT_FOUND', 'not-found', 'no author nobody'),
    );
    await keyAdmin.addAuthor({ id: 'alice', name: 'Alice' });
    await expect(keyAdmin.createAuthorToken('alice', { label: 'x'.repeat(101) })).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      message: 'label: expected at most 100 characters, got 101',
    });
  });
});

describe('/admin/authors/:id/tokens', () => {
  it('makes (201, shown once), lists (oldest first, never the token) and deletes (204) tokens', async () => {
    const { service, clock } = createHarness();
    await admin(service, 'POST', '/admin/authors', { id: 'Jean Dupont', name: 'Jean' }, 201);
    const path = '/admin/authors/Jean%20Dupont/tokens';
    const first = await admin(service, 'POST', path, { label: 'shop' }, 201);
    expect(Object.keys(first).sort()).toEqual(['id', 'token']);
    clock.advance(1000);
    const second = await admin(service, 'POST', path, undefined, 201);
    const listing = await service.handle(adminRequest('GET', path));
    expect(json(listing)).toEqual({
      tokens: [
        { id: first.id, label: 'shop', created: '2026-11-22T10:14:00Z', lastUsed: null },
        { id: second.id, label: null, created: '2026-11-22T10:14:01Z', lastUsed: null },
      ],
    });
    for (const made of [first, second]) {
      expect(listing.body).not.toContain(String(made.token));
      expect(listing.body).not.toContain(sha256(String(made.token)));
    }
    const deleted = await service.handle(adminRequest('DELETE', `${path}/${String(first.id)}`));
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(((await admin(service, 'GET', path, undefined, 200)).tokens as unknown[]).length).toBe(1);
  });

  it('lets an author make, list and delete its own tokens, a token deleting itself included', async () => {
    const { service } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    const made = await call(service, alice.token, 'POST', '/admin/authors/alice/tokens', { label: 'laptop' }, 201);
    expect(
      (await call(service, String(made.token), 'GET', '/admin/authors/alice/tokens', undefined, 200)).tokens,
    ).toHaveLength(2);
    await call(service, alice.token, 'DELETE', `/admin/authors/alice/tokens/${alice.id}`, undefined, 204);
    await call(service, alice.token, 'GET', '/admin/me', undefined, 401);
    await call(service, String(made.token), 'GET', '/admin/me', undefined, 200);
  });

  it('answers 404 for an unknown author or token, and never repeats a token id', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/authors', { id: 'alice', name: 'Alice' }, 201);
    for (const [method, path, detail] of [
      ['GET', '/admin/authors/nobody/tokens', 'no author nobody'],
      ['POST', '/admin/authors/nobody/tokens', 'no author nobody'],
      ['DELETE', '/admin/authors/nobody/tokens/tok_AAAAAAAAAAAAAAAA', 'no author nobody'],
      ['DELETE', '/admin/authors/alice/tokens/tok_AAAAAAAAAAAAAAAA', 'author alice has no such token'],
      ['DELETE', `/admin/authors/alice/tokens/lat_${'A'.repeat(43)}`, 'author alice has no such token'],
    ] as const) {
      const response = await service.handle(adminRequest(method, path));
      expect(response.status).toBe(404);
      expect(json(response).detail).toBe(detail);
    }
  });

  it.each([
    [{ label: 5 }, 'label: expected a string'],
    [{ label: 'a\nb' }, 'label: must not hold control characters'],
    [{ label: 'x'.repeat(101) }, 'label: expected at most 100 characters, got 101'],
  ])('answers %j with 400 %j', async (body, detail) => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/authors', { id: 'alice', name: 'Alice' }, 201);
    const response = await service.handle(adminRequest('POST', '/admin/authors/alice/tokens', body));
    expect(response.status).toBe(400);
    expect(json(response).detail).toBe(detail);
  });
});
