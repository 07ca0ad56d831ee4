import { describe, expect, it } from 'vitest';
import { as, authorWithToken, call } from '../test/authors.js';
import { admin, adminRequest, createHarness, issue, json, verdict } from '../test/harness.js';
import { PROBLEM_BASE } from './problem.js';
import type { ServiceResponse } from './service-types.js';

// docs/protocol.md#authors: an author token reaches its author's products and keys only; another
// author's is a 404, the same answer as for one that does not exist; the operator's routes and a
// product of another author are a 403.

const hintOf = (cle: string) => cle.replace(/-/g, '').slice(-4);

function expectProblem(response: ServiceResponse, status: number, type: string, detail: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(json(response)).toEqual({
    type: PROBLEM_BASE + type,
    title: { 403: 'Forbidden', 404: 'Not found' }[status],
    status,
    detail,
  });
}

/** Alice and Bob, each with a product, Bob's with a key bound to one domain. */
async function twoAuthors() {
  const harness = createHarness();
  const { service } = harness;
  const alice = await authorWithToken(service, 'alice');
  const bob = await authorWithToken(service, 'bob');
  const cleA = await issue(service, { produit: 'theme-a', author: 'alice' });
  const cleB = await issue(service, { produit: 'theme-b', author: 'bob' });
  await verdict(service, { cle: cleB, url: 'bob.fr' }, 'bob.fr');
  return { ...harness, alice, bob, cleA, cleB };
}

describe("an author token on another author's products and keys: 404, as if they did not exist", () => {
  it('cannot read, issue on, regenerate, transfer or revoke them, nor list their installations or activity', async () => {
    const { service, alice, cleB } = await twoAuthors();
    // The very answers the operator gets for a product and a key that do not exist.
    const empty = createHarness().service;
    const missingKey = await empty.handle(adminRequest('GET', `/admin/keys/${cleB}`));
    const missingProduct = await empty.handle(adminRequest('GET', '/admin/products/theme-b/installations'));
    expectProblem(missingKey, 404, 'not-found', `no key ending in ${hintOf(cleB)}`);
    expectProblem(missingProduct, 404, 'not-found', 'no product theme-b');

    const asAlice = (method: string, path: string, body?: unknown) =>
      service.handle(as(alice.token, method, path, body));
    for (const response of [
      await asAlice('GET', `/admin/keys/${cleB}`),
      await asAlice('POST', `/admin/keys/${cleB}/regenerate`),
      await asAlice('POST', `/admin/keys/${cleB}/transfer`, { to: 'alice.fr' }),
      await asAlice('POST', `/admin/keys/${cleB}/revoke`, { reason: 'mine now' }),
    ]) {
      expect(response.body).toBe(missingKey.body);
      expect(response.status).toBe(404);
    }
    for (const response of [
      await asAlice('GET', '/admin/products/theme-b/installations'),
      await asAlice('GET', '/admin/products/theme-b/activity'),
      await asAlice('POST', '/admin/keys', { produit: 'theme-b', kind: 'buyer' }),
    ]) {
      expect(response.body).toBe(missingProduct.body);
      expect(response.status).toBe(404);
    }
    // Nothing changed: Bob's key is still alive, alone, and answers ok.
    expect(await admin(service, 'GET', `/admin/keys/${cleB}`, undefined, 200)).toMatchObject({ status: 'active' });
    expect(await admin(service, 'GET', '/admin/products/theme-b/installations', undefined, 200)).toMatchObject({
      count: 1,
      keys: [{ hint: hintOf(cleB) }],
    });
    expect(await verdict(service, { cle: cleB, url: 'bob.fr' }, 'bob.fr')).toMatchObject({ ok: true });
  });

  it('reaches its own: show, issue, revoke, installations, activity', async () => {
    const { service, alice, cleA } = await twoAuthors();
    expect(await call(service, alice.token, 'GET', `/admin/keys/${cleA}`, undefined, 200)).toMatchObject({
      produit: 'theme-a',
    });
    const issued = await call(service, alice.token, 'POST', '/admin/keys', { produit: 'theme-a', kind: 'dev' }, 201);
    expect(issued).toMatchObject({ produit: 'theme-a', kind: 'dev' });
    expect(await call(service, alice.token, 'POST', `/admin/keys/${cleA}/revoke`, {}, 200)).toMatchObject({
      status: 'revocation',
    });
    expect(
      await call(service, alice.token, 'GET', '/admin/products/theme-a/installations', undefined, 200),
    ).toMatchObject({ produit: 'theme-a', count: 0 });
    expect(await call(service, alice.token, 'GET', '/admin/products/theme-a/activity?days=1', undefined, 200)).toEqual({
      product: 'theme-a',
      days: [{ date: '2026-11-22', ok: 0, essai: 0, refusals: {} }],
    });
  });

  it('lists its own products only', async () => {
    const { service, alice } = await twoAuthors();
    expect(await call(service, alice.token, 'GET', '/admin/products', undefined, 200)).toEqual({
      products: [{ id: 'theme-a', author: 'alice', name: 'theme-a', installations: 0 }],
    });
    expect(await admin(service, 'GET', '/admin/products', undefined, 200)).toEqual({
      products: [
        { id: 'theme-a', author: 'alice', name: 'theme-a', installations: 0 },
        { id: 'theme-b', author: 'bob', name: 'theme-b', installations: 1 },
      ],
    });
  });
});

describe('an author token creating products (docs/protocol.md#authors)', () => {
  it('makes them for its own author, named or left out; another author is a 403, and nothing is made', async () => {
    const { service, alice } = await twoAuthors();
    expect(await call(service, alice.token, 'POST', '/admin/products', { id: 'p1', name: 'P1' }, 201)).toEqual({
      id: 'p1',
      author: 'alice',
      name: 'P1',
    });
    expect(
      await call(service, alice.token, 'POST', '/admin/products', { id: 'p2', author: ' alice ', name: 'P2' }, 201),
    ).toEqual({ id: 'p2', author: 'alice', name: 'P2' });
    const forBob = await service.handle(
      as(alice.token, 'POST', '/admin/products', { id: 'p3', author: 'bob', name: 'P3' }),
    );
    expectProblem(forBob, 403, 'forbidden', 'author: this token creates products of author alice only');
    expect((await admin(service, 'GET', '/admin/products', undefined, 200)).products).not.toContainEqual(
      expect.objectContaining({ id: 'p3' }),
    );
  });

  it('still needs the operator to name the author (the existing 400)', async () => {
    const { service } = createHarness();
    const response = await service.handle(adminRequest('POST', '/admin/products', { id: 'p', name: 'P' }));
    expect(response.status).toBe(400);
    expect(json(response).detail).toBe('author: is required');
  });
});

describe("the operator's routes and other authors' tokens", () => {
  it('are a 403 for an author token: purge, add and list authors', async () => {
    const { service, alice } = await twoAuthors();
    expectProblem(
      await service.handle(as(alice.token, 'POST', '/admin/purge')),
      403,
      'forbidden',
      "only the operator's token may purge the request log",
    );
    expectProblem(
      await service.handle(as(alice.token, 'POST', '/admin/authors', { id: 'mallory', name: 'M' })),
      403,
      'forbidden',
      "only the operator's token may add authors",
    );
    expectProblem(
      await service.handle(as(alice.token, 'GET', '/admin/authors')),
      403,
      'forbidden',
      "only the operator's token may list authors",
    );
    expect((await admin(service, 'GET', '/admin/authors', undefined, 200)).authors).toHaveLength(2);
  });

  it("cannot list, make or delete another author's tokens: 404, as for no such author", async () => {
    const { service, alice, bob } = await twoAuthors();
    const nobody = await service.handle(as(alice.token, 'GET', '/admin/authors/nobody/tokens'));
    expectProblem(nobody, 404, 'not-found', 'no author nobody');
    expectProblem(
      await service.handle(as(alice.token, 'GET', '/admin/authors/bob/tokens')),
      404,
      'not-found',
      'no author bob',
    );
    expectProblem(
      await service.handle(as(alice.token, 'POST', '/admin/authors/bob/tokens', { label: 'x' })),
      404,
      'not-found',
      'no author bob',
    );
    expectProblem(
      await service.handle(as(alice.token, 'DELETE', `/admin/authors/bob/tokens/${bob.id}`)),
      404,
      'not-found',
      'no author bob',
    );
    // Bob's token is untouched and still his alone.
    expect(await call(service, bob.token, 'GET', '/admin/authors/bob/tokens', undefined, 200)).toMatchObject({
      tokens: [{ id: bob.id }],
    });
  });
});

describe('authors added after their products (docs/protocol.md#authors)', () => {
  it('own the products whose author is their id, and their keys', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { produit: 'old-theme', author: 'carol' });
    const carol = await authorWithToken(service, 'carol');
    expect(await call(service, carol.token, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({
      produit: 'old-theme',
    });
    expect(await call(service, carol.token, 'GET', '/admin/products', undefined, 200)).toEqual({
      products: [{ id: 'old-theme', author: 'carol', name: 'old-theme', installations: 0 }],
    });
  });
});
