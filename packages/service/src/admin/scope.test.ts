import { describe, expect, it } from 'vitest';
import { as, authorWithToken, call } from '../../test/authors.js';
import { admin, adminRequest, createHarness, issue, json, verdict } from '../../test/harness.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { Service, ServiceResponse } from '../http/index.js';

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
      products: [{ id: 'theme-a', author: 'alice', name: 'theme-a', staging: [], installations: 0 }],
    });
    expect(await admin(service, 'GET', '/admin/products', undefined, 200)).toEqual({
      products: [
        { id: 'theme-a', author: 'alice', name: 'theme-a', staging: [], installations: 0 },
        { id: 'theme-b', author: 'bob', name: 'theme-b', staging: [], installations: 1 },
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
      staging: [],
    });
    expect(
      await call(service, alice.token, 'POST', '/admin/products', { id: 'p2', author: ' alice ', name: 'P2' }, 201),
    ).toEqual({ id: 'p2', author: 'alice', name: 'P2', staging: [] });
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
      products: [{ id: 'old-theme', author: 'carol', name: 'old-theme', staging: [], installations: 0 }],
    });
  });
});

describe("webhook endpoints (docs/protocol.md#webhooks): another author's, or every author's, are a 404", () => {
  /** Alice's endpoint (made by her token), Bob's (made by the operator) and one of every author. */
  async function endpoints() {
    const authors = await twoAuthors();
    const { service, alice } = authors;
    const events = ['key.issued', 'key.revoked'];
    const every = await admin(service, 'POST', '/admin/webhooks', { url: 'https://all.example/', events }, 201);
    const body = { url: 'https://a.example/', events };
    const ofAlice = await call(service, alice.token, 'POST', '/admin/webhooks', body, 201);
    const bobs = { url: 'https://b.example/', events, author: 'bob' };
    const ofBob = await admin(service, 'POST', '/admin/webhooks', bobs, 201);
    // One event each: Alice's and every author's endpoints hear of theme-a, Bob's and every author's of theme-b.
    await call(service, alice.token, 'POST', `/admin/keys/${authors.cleA}/revoke`, {}, 200);
    await admin(service, 'POST', `/admin/keys/${authors.cleB}/revoke`, {}, 200);
    return { ...authors, every: String(every.id), ofAlice: String(ofAlice.id), ofBob: String(ofBob.id) };
  }

  const deliveryOf = async (service: Service, id: string): Promise<string> => {
    const { deliveries } = await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200);
    const first = (deliveries as { id: string }[])[0];
    if (first === undefined) throw new Error('no delivery');
    return first.id;
  };

  it('answers every route on them as on a missing endpoint, and changes nothing', async () => {
    const { service, alice, every, ofBob } = await endpoints();
    for (const id of [ofBob, every]) {
      const delivery = await deliveryOf(service, id);
      const routes: [string, string][] = [
        ['DELETE', `/admin/webhooks/${id}`],
        ['POST', `/admin/webhooks/${id}/secret`],
        ['GET', `/admin/webhooks/${id}/deliveries`],
        ['POST', `/admin/webhooks/${id}/deliveries/${delivery}/retry`],
      ];
      for (const [method, path] of routes) {
        // The very answer the operator gets where no such endpoint exists.
        const missing = await createHarness().service.handle(adminRequest(method, path));
        expectProblem(missing, 404, 'not-found', `no webhook ${id}`);
        const response = await service.handle(as(alice.token, method, path));
        expect(response.status).toBe(404);
        expect(response.body).toBe(missing.body);
      }
    }
    const listed = await admin(service, 'GET', '/admin/webhooks', undefined, 200);
    expect((listed.webhooks as unknown[]).length).toBe(3);
    const bobs = await admin(service, 'GET', `/admin/webhooks/${ofBob}/deliveries`, undefined, 200);
    expect(bobs.deliveries).toEqual([
      expect.objectContaining({ type: 'key.revoked', status: 'pending', attempts: [] }),
    ]);
  });

  it('lets an author token reach its own: rotate, deliveries, retry, delete', async () => {
    const { service, alice, ofAlice } = await endpoints();
    const rotated = await call(service, alice.token, 'POST', `/admin/webhooks/${ofAlice}/secret`, undefined, 200);
    expect(rotated).toMatchObject({ id: ofAlice, secret: expect.stringMatching(/^whsec_/) });
    const log = await call(service, alice.token, 'GET', `/admin/webhooks/${ofAlice}/deliveries`, undefined, 200);
    expect(log).toMatchObject({ webhook: ofAlice, deliveries: [{ type: 'key.revoked' }] });
    const delivery = await deliveryOf(service, ofAlice);
    const path = `/admin/webhooks/${ofAlice}/deliveries/${delivery}/retry`;
    expect(await call(service, alice.token, 'POST', path, undefined, 202)).toMatchObject({ id: delivery });
    expect(await call(service, alice.token, 'DELETE', `/admin/webhooks/${ofAlice}`, undefined, 204)).toEqual({});
    expect(await call(service, alice.token, 'GET', '/admin/webhooks', undefined, 200)).toEqual({ webhooks: [] });
  });

  it('lets the operator reach every endpoint', async () => {
    const { service, every, ofAlice, ofBob } = await endpoints();
    for (const id of [every, ofAlice, ofBob]) {
      expect(await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200)).toMatchObject({
        webhook: id,
      });
    }
    // Every author's endpoint heard both revocations; each author's, its own only.
    const types = async (id: string) =>
      ((await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200)).deliveries as unknown[])
        .length;
    expect([await types(every), await types(ofAlice), await types(ofBob)]).toEqual([2, 1, 1]);
  });
});
