import { createHash, timingSafeEqual } from 'node:crypto';
import { normalizeKey } from '@licence/core';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, admin, adminRequest, createHarness, issue, json, verdict } from '../../test/harness.js';
import { adminError, storeUnavailable } from './errors.js';
import { hashToken, isAuthorized } from './auth.js';
import { adminRouteName, toHttpError } from './routes.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ServiceResponse } from '../http/index.js';

// Compared in constant time (docs/protocol.md#administration): `timingSafeEqual` is wrapped in a
// spy that still calls the real one, so every test of this file runs the real comparison and one
// test can check its inputs.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const KEY_FORMAT = /^[0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

function expectProblem(response: ServiceResponse, status: number, type: string, detail?: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(response.headers['Cache-Control']).toBe('no-store');
  const body = json(response);
  expect(body.type).toBe(PROBLEM_BASE + type);
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

describe('admin authentication (docs/protocol.md#administration)', () => {
  it('is off with an empty token: every /admin path is a 404 (no token at all: create-service.test.ts)', async () => {
    const { service } = createHarness({ adminToken: '' });
    expectProblem(await service.handle(adminRequest('POST', '/admin/products', { id: 'p' })), 404, 'not-found');
    expectProblem(await service.handle(adminRequest('POST', '/admin/purge', undefined, null)), 404, 'not-found');
    expectProblem(await service.handle(adminRequest('POST', '/admin/purge', undefined, '')), 404, 'not-found');
  });

  it.each([
    ['no Authorization', null],
    ['a wrong token', 'wrong-token'],
    ['a prefix of the token', ADMIN_TOKEN.slice(0, -1)],
    ['the token and more', `${ADMIN_TOKEN}x`],
  ])('answers %s with 401 and WWW-Authenticate: Bearer', async (_name, token) => {
    const { service } = createHarness();
    const response = await service.handle(
      adminRequest('POST', '/admin/products', { id: 'p', author: 'a', name: 'n' }, token),
    );
    expectProblem(response, 401, 'unauthorized');
    expect(response.headers['WWW-Authenticate']).toBe('Bearer');
    expect(response.body).not.toContain(ADMIN_TOKEN);
  });

  it('asks for the token before telling whether a route exists', async () => {
    const { service } = createHarness();
    expectProblem(await service.handle(adminRequest('GET', '/admin/nothing', undefined, null)), 401, 'unauthorized');
    expectProblem(await service.handle(adminRequest('GET', '/admin/nothing')), 404, 'not-found');
  });

  it('compares the token in constant time: timingSafeEqual over two SHA-256 digests, whatever its length', async () => {
    const { service } = createHarness();
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    const wrong = 'short';
    expect(wrong.length).not.toBe(ADMIN_TOKEN.length);
    const response = await service.handle(adminRequest('POST', '/admin/purge', undefined, wrong));
    expectProblem(response, 401, 'unauthorized');
    expect(spy).toHaveBeenCalledTimes(1);
    const [given, expected] = spy.mock.calls[0] ?? [];
    // Equal-length digests: neither the token nor its length leaks through the time taken.
    expect(Buffer.from(given as Uint8Array)).toEqual(createHash('sha256').update(wrong).digest());
    expect(Buffer.from(expected as Uint8Array)).toEqual(createHash('sha256').update(ADMIN_TOKEN).digest());
    expect((given as Uint8Array).byteLength).toBe(32);
    expect((expected as Uint8Array).byteLength).toBe(32);
  });

  it('isAuthorized takes the Bearer scheme in any case, and nothing else', () => {
    const expected = hashToken('s3cret');
    expect(isAuthorized('Bearer s3cret', expected)).toBe(true);
    expect(isAuthorized('bearer   s3cret ', expected)).toBe(true);
    expect(isAuthorized('Basic s3cret', expected)).toBe(false);
    expect(isAuthorized('Bearer', expected)).toBe(false);
    expect(isAuthorized('Bearer s3cret extra', expected)).toBe(false);
    expect(isAuthorized('s3cret', expected)).toBe(false);
    expect(isAuthorized(undefined, expected)).toBe(false);
  });
});

describe('admin routing', () => {
  it.each([
    ['PUT', '/admin/products', 'GET, POST'],
    ['DELETE', '/admin/keys', 'POST'],
    ['POST', '/admin/keys/ABCDE', 'GET'],
    ['GET', '/admin/keys/ABCDE/regenerate', 'POST'],
    ['GET', '/admin/keys/ABCDE/transfer', 'POST'],
    ['PUT', '/admin/keys/ABCDE/revoke', 'POST'],
    ['POST', '/admin/products/p/installations', 'GET'],
    ['GET', '/admin/purge', 'POST'],
    ['POST', '/admin/me', 'GET'],
    ['POST', '/admin/products/p/activity', 'GET'],
    ['DELETE', '/admin/authors', 'GET, POST'],
    ['DELETE', '/admin/authors/alice/tokens', 'GET, POST'],
    ['GET', '/admin/authors/alice/tokens/tok_x', 'DELETE'],
    ['POST', '/admin/authors/alice/tokens/tok_x', 'DELETE'],
    ['DELETE', '/admin/webhooks', 'GET, POST'],
    ['GET', '/admin/webhooks/wh_x', 'DELETE'],
    ['GET', '/admin/webhooks/wh_x/secret', 'POST'],
    ['POST', '/admin/webhooks/wh_x/deliveries', 'GET'],
    ['GET', '/admin/webhooks/wh_x/deliveries/dlv_y/retry', 'POST'],
    ['GET', '/admin/products/p', 'PATCH'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const { service } = createHarness();
    const response = await service.handle(adminRequest(method, path));
    expectProblem(response, 405, 'method-not-allowed');
    expect(response.headers.Allow).toBe(allow);
  });

  it.each([
    '/admin',
    '/admin/',
    '/admin/keys/',
    '/admin/keys/A/B',
    '/admin/products/p/x',
    '/admin/products//installations',
    '/admin/authors/alice',
    '/admin/authors//tokens',
    '/admin/authors/alice/tokens/',
    '/admin/me/x',
    '/admin/webhooks/',
    '/admin/webhooks/wh_x/deliveries/dlv_y',
    '/admin/webhooks//secret',
  ])('answers the unknown admin path %s with 404', async (path) => {
    const { service } = createHarness();
    expectProblem(await service.handle(adminRequest('GET', path)), 404, 'not-found');
  });

  it('answers a body over 64 KiB with 413, a wrong type with 415, broken JSON with 400', async () => {
    const { service } = createHarness();
    const big = { id: 'p', author: 'a', name: 'n', pad: 'x'.repeat(65 * 1024) };
    expectProblem(await service.handle(adminRequest('POST', '/admin/products', big)), 413, 'body-too-large');
    const typed = adminRequest('POST', '/admin/products', { id: 'p', author: 'a', name: 'n' });
    expectProblem(
      await service.handle({ ...typed, headers: { ...typed.headers, 'content-type': 'text/plain' } }),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/products', '{"id":')),
      400,
      'invalid-request',
      'body: not valid JSON',
    );
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/products', '[]')),
      400,
      'invalid-request',
      'body: expected a JSON object, got array',
    );
  });

  it('takes a missing body where no field is required, whatever its content type', async () => {
    const { service } = createHarness();
    const request = adminRequest('POST', '/admin/purge');
    const response = await service.handle({ ...request, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(json(response)).toEqual({ erased: 0 });
  });
});

describe('admin answers are never sniffed (response.ts)', () => {
  it('every answer, JSON, empty or problem, carries X-Content-Type-Options: nosniff', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/authors', { id: 'atelier', name: 'Atelier' }, 201);
    const token = await admin(service, 'POST', '/admin/authors/atelier/tokens', {}, 201);
    const answers = [
      await service.handle(adminRequest('POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'T' })),
      await service.handle(adminRequest('GET', '/admin/products')),
      await service.handle(adminRequest('DELETE', `/admin/authors/atelier/tokens/${String(token.id)}`)),
      await service.handle(adminRequest('POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'T' })),
      await service.handle(adminRequest('GET', '/admin/keys/ABCDE')),
      await service.handle(adminRequest('GET', '/admin/products', undefined, 'wrong-token')),
      await service.handle(adminRequest('PUT', '/admin/products')),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 204, 409, 404, 401, 405]);
    for (const answer of answers) expect(answer.headers['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('POST /admin/products', () => {
  it('creates a product (201), then 409 for the same id', async () => {
    const { service } = createHarness();
    expect(
      await admin(service, 'POST', '/admin/products', { id: 'mon-theme', author: 'alice', name: 'Mon Thème' }, 201),
    ).toEqual({
      id: 'mon-theme',
      author: 'alice',
      name: 'Mon Thème',
      staging: [],
    });
    const again = await service.handle(
      adminRequest('POST', '/admin/products', { id: 'mon-theme', author: 'bob', name: 'x' }),
    );
    expectProblem(
      again,
      409,
      'conflict',
      'product id mon-theme is taken; product ids are one namespace for the whole service',
    );
  });

  it('409 for an id another author holds, to an author token, without naming that author (docs/protocol.md#authors)', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'mon-theme', author: 'alice-atelier', name: 'A' }, 201);
    await admin(service, 'POST', '/admin/authors', { id: 'bob', name: 'Bob' }, 201);
    const { token } = await admin(service, 'POST', '/admin/authors/bob/tokens', {}, 201);
    const taken = await service.handle(
      adminRequest('POST', '/admin/products', { id: 'mon-theme', name: 'B' }, String(token)),
    );
    expectProblem(
      taken,
      409,
      'conflict',
      'product id mon-theme is taken; product ids are one namespace for the whole service',
    );
    expect(taken.body).not.toContain('alice');
  });

  it.each([
    [undefined, 'id: is required'],
    [{ author: 'a', name: 'n' }, 'id: is required'],
    [{ id: 'Mon Theme', author: 'a', name: 'n' }, 'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"'],
    [{ id: 'p', name: 'n' }, 'author: is required'],
    [{ id: 'p', author: 'a' }, 'name: is required'],
    [{ id: 'p', author: 'a', name: 7 }, 'name: expected a string'],
  ])('answers %j with 400 %j', async (body, detail) => {
    const { service } = createHarness();
    expectProblem(await service.handle(adminRequest('POST', '/admin/products', body)), 400, 'invalid-request', detail);
  });
});

describe('PATCH /admin/products/:id (docs/protocol.md#staging-hosts)', () => {
  it('reads a JSON body like a POST: 200 the product, 415 another type, 413 too large, 400 none', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'theme', author: 'alice', name: 'Theme' }, 201);
    expect(await admin(service, 'PATCH', '/admin/products/theme', { staging: ['*.Recette.fr'] }, 200)).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Theme',
      staging: ['*.recette.fr'],
    });
    const typed = adminRequest('PATCH', '/admin/products/theme', { name: 'x' });
    expectProblem(
      await service.handle({ ...typed, headers: { ...typed.headers, 'content-type': 'text/plain' } }),
      415,
      'unsupported-media-type',
    );
    const big = { name: 'x', pad: 'x'.repeat(65 * 1024) };
    expectProblem(await service.handle(adminRequest('PATCH', '/admin/products/theme', big)), 413, 'body-too-large');
    expectProblem(
      await service.handle(adminRequest('PATCH', '/admin/products/theme')),
      400,
      'invalid-request',
      'body: expected at least one of name, staging',
    );
    expectProblem(
      await service.handle(adminRequest('PATCH', '/admin/products/nope', { name: 'x' })),
      404,
      'not-found',
      'no product nope',
    );
  });

  it('is named in the log by its pattern, never by its path', () => {
    expect(adminRouteName(adminRequest('PATCH', '/admin/products/theme'))).toBe('PATCH /admin/products/:id');
  });
});

describe('POST /admin/keys', () => {
  it('issues a buyer key shown once, formatted, with its hint', async () => {
    const { service, logger } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'mon-theme', author: 'alice', name: 'Mon Thème' }, 201);
    const issued = await admin(service, 'POST', '/admin/keys', { produit: 'mon-theme', kind: 'buyer' }, 201);
    expect(issued).toEqual({
      cle: expect.stringMatching(KEY_FORMAT),
      hint: String(issued.cle).replace(/-/g, '').slice(-4),
      produit: 'mon-theme',
      kind: 'buyer',
      sites: 1,
      expire: null,
    });
    // Shown once: no later answer and no log line holds it.
    const shown = await service.handle(adminRequest('GET', `/admin/keys/${String(issued.cle)}`));
    expect(shown.body).not.toContain(String(issued.cle).replace(/-/g, ''));
    expect(logger.text()).not.toContain(String(issued.cle).replace(/-/g, '').slice(0, 8));
  });

  it('stores the key as SHA-256 of its normalised form plus its last four characters (docs/protocol.md#key-lifecycle)', async () => {
    const { service, store } = createHarness();
    const cle = await issue(service, { sites: 2 });
    const normalised = normalizeKey(cle);
    const stored = await store.findKeyByHash(createHash('sha256').update(normalised, 'utf8').digest('hex'));
    expect(stored).not.toBeNull();
    expect(stored?.hint).toBe(normalised.slice(-4));
    expect(stored?.sites).toBe(2);
    // Nothing stored is the key itself, in either form.
    const text = JSON.stringify(stored);
    expect(text).not.toContain(normalised);
    expect(text).not.toContain(cle);
  });

  it('issues trial keys with an end and multi-site buyer keys', async () => {
    const { service, clock } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'p', author: 'a', name: 'n' }, 201);
    const end = iso(clock.nowMs + 30 * DAY);
    expect(
      await admin(service, 'POST', '/admin/keys', { produit: 'p', kind: 'trial', expire: end, sites: 2 }, 201),
    ).toMatchObject({
      kind: 'trial',
      sites: 2,
      expire: end,
    });
    expect(await admin(service, 'POST', '/admin/keys', { produit: 'p', kind: 'buyer', sites: 5 }, 201)).toMatchObject({
      sites: 5,
    });
    expect(await admin(service, 'POST', '/admin/keys', { produit: 'p', kind: 'dev' }, 201)).toMatchObject({
      kind: 'dev',
      sites: 0,
    });
  });

  it('answers 404 for an unknown product and 409 for a second live dev key', async () => {
    const { service } = createHarness();
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/keys', { produit: 'nope', kind: 'buyer' })),
      404,
      'not-found',
      'no product nope',
    );
    await issue(service, { kind: 'dev' });
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/keys', { produit: 'mon-theme', kind: 'dev' })),
      409,
      'conflict',
      'product mon-theme already has a live dev key; regenerate it instead',
    );
  });

  it.each([
    [{ kind: 'buyer' }, 'produit: is required'],
    [{ produit: 'p' }, 'kind: is required'],
    [{ produit: 'p', kind: 'gold' }, 'kind: expected one of "buyer", "trial", "dev"'],
    [{ produit: 'p', kind: 'buyer', sites: 0 }, 'sites: expected an integer from 1 to 1000'],
    [{ produit: 'p', kind: 'buyer', sites: 1001 }, 'sites: expected an integer from 1 to 1000'],
    [{ produit: 'p', kind: 'dev', sites: 2 }, 'sites: a dev key binds no domain; leave sites out'],
    [{ produit: 'p', kind: 'trial' }, 'expire: is required for a trial key'],
    [{ produit: 'p', kind: 'trial', expire: '2020-01-01T00:00:00Z' }, 'expire: must be in the future'],
    [
      { produit: 'p', kind: 'trial', expire: 'next week' },
      'expire: expected an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z',
    ],
    [
      { produit: 'p', kind: 'buyer', expire: '2030-01-01T00:00:00Z' },
      'expire: only a trial key has an end; leave expire out for a buyer key',
    ],
  ])('answers %j with 400 %j', async (body, detail) => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'p', author: 'a', name: 'n' }, 201);
    expectProblem(await service.handle(adminRequest('POST', '/admin/keys', body)), 400, 'invalid-request', detail);
  });
});

describe('GET /admin/keys/:cle', () => {
  it('shows the key by hint, never whole, with domains and ISO times', async () => {
    const { service, clock } = createHarness();
    const end = clock.nowMs + 10 * DAY;
    const cle = await issue(service, { kind: 'trial', expire: iso(end), sites: 2 });
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toEqual({
      hint: cle.slice(-4),
      produit: 'mon-theme',
      kind: 'trial',
      status: 'active',
      sites: 2,
      expire: iso(end),
      quand: null,
      reason: null,
      domains: [{ domain: 'exemple.fr', firstSeen: iso(clock.nowMs), lastSeen: iso(clock.nowMs) }],
    });
    clock.nowMs = end;
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({ status: 'expiree' });
  });

  it('normalises the path key: percent-encoded, lower case, without dashes', async () => {
    const { service } = createHarness();
    const cle = await issue(service, {});
    for (const form of [
      encodeURIComponent(` ${cle} `),
      cle.toLowerCase(),
      cle.replace(/-/g, ''),
      cle.replace(/-/g, '%20'),
    ]) {
      expect((await admin(service, 'GET', `/admin/keys/${form}`, undefined, 200)).hint).toBe(cle.slice(-4));
    }
  });

  it('answers 404 for an unknown key and 400 for a malformed one', async () => {
    const { service, logger } = createHarness();
    expectProblem(
      await service.handle(adminRequest('GET', '/admin/keys/ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ')),
      404,
      'not-found',
      'no key ending in ZZZZ',
    );
    expectProblem(
      await service.handle(adminRequest('GET', '/admin/keys/%E0%A4%A')),
      400,
      'invalid-request',
      'cle: not a valid percent-encoded path segment',
    );
    expectProblem(
      await service.handle(adminRequest('GET', '/admin/keys/---')),
      400,
      'invalid-request',
      'cle: holds no letter or digit',
    );
    expectProblem(
      await service.handle(adminRequest('GET', `/admin/keys/${'A'.repeat(1025)}`)),
      400,
      'invalid-request',
      'cle: longer than 1024 characters',
    );
    expect(logger.text()).not.toContain('ZZZZZ');
  });
});

describe('regenerate, transfer, revoke (docs/protocol.md#key-lifecycle)', () => {
  it('regenerate: 201 {cle} with a new key keeping product, limits and domains', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { sites: 3 });
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    const answer = await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    expect(Object.keys(answer)).toEqual(['cle']);
    expect(answer.cle).toMatch(KEY_FORMAT);
    expect(answer.cle).not.toBe(cle);
    const fresh = await admin(service, 'GET', `/admin/keys/${String(answer.cle)}`, undefined, 200);
    expect(fresh).toMatchObject({ produit: 'mon-theme', kind: 'buyer', sites: 3, status: 'active' });
    expect(fresh.domains).toEqual([expect.objectContaining({ domain: 'a.fr' })]);
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({
      status: 'regeneration',
      quand: expect.any(String),
    });
  });

  it('transfer: old domains minus from, plus to; 409 for a from not bound and a to beyond the allowance', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { sites: 2 });
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    await verdict(service, { cle, url: 'b.fr' }, 'b.fr');
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${cle}/transfer`, { from: 'c.fr', to: 'd.fr' })),
      409,
      'conflict',
      `key ${cle.slice(-4)} is not bound to c.fr`,
    );
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${cle}/transfer`, { to: 'd.fr' })),
      409,
      'conflict',
      `key ${cle.slice(-4)} allows 2 domain(s); d.fr would make 3`,
    );
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${cle}/transfer`, { to: 'localhost' })),
      400,
      'invalid-request',
      'to: a test or staging host is never bound; give the real domain',
    );
    // Nothing changed by the refusals: the key is still alive.
    const { cle: fresh } = await admin(
      service,
      'POST',
      `/admin/keys/${cle}/transfer`,
      { from: 'www.a.fr', to: 'shop.d.fr' },
      201,
    );
    const shown = await admin(service, 'GET', `/admin/keys/${String(fresh)}`, undefined, 200);
    expect((shown.domains as { domain: string }[]).map((entry) => entry.domain)).toEqual(['b.fr', 'd.fr']);
  });

  it('regenerate then transfer keep the kind and the limits of a trial key (docs/protocol.md#key-lifecycle)', async () => {
    const { service, clock } = createHarness();
    const end = iso(clock.nowMs + 30 * DAY);
    const cle = await issue(service, { kind: 'trial', expire: end, sites: 2 });
    const { cle: regenerated } = await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    const { cle: transferred } = await admin(
      service,
      'POST',
      `/admin/keys/${String(regenerated)}/transfer`,
      undefined,
      201,
    );
    // The regenerated key is itself transferred afterwards, so its status is no longer active.
    for (const [fresh, status] of [
      [regenerated, 'transfert'],
      [transferred, 'active'],
    ] as const) {
      expect(await admin(service, 'GET', `/admin/keys/${String(fresh)}`, undefined, 200)).toMatchObject({
        produit: 'mon-theme',
        kind: 'trial',
        sites: 2,
        expire: end,
        status,
      });
    }
  });

  it('transfer without from or to moves the key as it is', async () => {
    const { service } = createHarness();
    const cle = await issue(service, {});
    const { cle: fresh } = await admin(service, 'POST', `/admin/keys/${cle}/transfer`, undefined, 201);
    expect(await admin(service, 'GET', `/admin/keys/${String(fresh)}`, undefined, 200)).toMatchObject({
      status: 'active',
    });
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({ status: 'transfert' });
  });

  it('revoke: 200 with or without a reason; the reason is kept for the author, never logged', async () => {
    const { service, clock, logger } = createHarness();
    const cle = await issue(service, {});
    expect(await admin(service, 'POST', `/admin/keys/${cle}/revoke`, { reason: 'rétrofacturation n°42' }, 200)).toEqual(
      {
        hint: cle.slice(-4),
        status: 'revocation',
        quand: iso(clock.nowMs),
      },
    );
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({
      reason: 'rétrofacturation n°42',
    });
    expect(logger.text()).not.toContain('rétrofacturation');
    const other = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${other}/revoke`, undefined, 200);
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${other}/revoke`, { reason: 5 })),
      400,
      'invalid-request',
      'reason: expected a string',
    );
  });

  it.each(['regenerate', 'transfer', 'revoke'])('answers %s on a key no longer alive with 409', async (action) => {
    const { service, clock } = createHarness();
    const revoked = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${revoked}/revoke`, undefined, 200);
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${revoked}/${action}`)),
      409,
      'conflict',
      `key ${revoked.slice(-4)} is no longer alive (revocation)`,
    );
    const regenerated = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${regenerated}/regenerate`, undefined, 201);
    expectProblem(await service.handle(adminRequest('POST', `/admin/keys/${regenerated}/${action}`)), 409, 'conflict');
    const trial = await issue(service, { kind: 'trial', expire: iso(clock.nowMs + DAY) });
    clock.advance(DAY);
    expectProblem(
      await service.handle(adminRequest('POST', `/admin/keys/${trial}/${action}`)),
      409,
      'conflict',
      `key ${trial.slice(-4)} is no longer alive (expiree)`,
    );
  });

  it.each(['regenerate', 'transfer', 'revoke'])('answers %s on an unknown key with 404', async (action) => {
    const { service } = createHarness();
    expectProblem(await service.handle(adminRequest('POST', `/admin/keys/ZZZZZ/${action}`)), 404, 'not-found');
  });
});

describe('GET /admin/products/:id/installations', () => {
  it('lists every key with its domains, and counts the domains of live keys once', async () => {
    const { service } = createHarness();
    const one = await issue(service, { sites: 2 });
    await verdict(service, { cle: one, url: 'a.fr' }, 'a.fr');
    await verdict(service, { cle: one, url: 'b.fr' }, 'b.fr');
    const two = await issue(service, {});
    await verdict(service, { cle: two, url: 'c.fr' }, 'c.fr');
    await admin(service, 'POST', `/admin/keys/${two}/regenerate`, undefined, 201);
    const answer = await admin(service, 'GET', '/admin/products/mon-theme/installations', undefined, 200);
    expect(answer.produit).toBe('mon-theme');
    expect(answer.count).toBe(3);
    expect(answer.keys).toEqual([
      {
        hint: one.slice(-4),
        kind: 'buyer',
        status: 'active',
        domains: [expect.objectContaining({ domain: 'a.fr' }), expect.objectContaining({ domain: 'b.fr' })],
      },
      {
        hint: two.slice(-4),
        kind: 'buyer',
        status: 'regeneration',
        domains: [expect.objectContaining({ domain: 'c.fr' })],
      },
      {
        hint: expect.any(String),
        kind: 'buyer',
        status: 'active',
        domains: [expect.objectContaining({ domain: 'c.fr' })],
      },
    ]);
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    const { service } = createHarness();
    expectProblem(
      await service.handle(adminRequest('GET', '/admin/products/nope/installations')),
      404,
      'not-found',
      'no product nope',
    );
    expectProblem(
      await service.handle(adminRequest('GET', '/admin/products/N%20O/installations')),
      400,
      'invalid-request',
    );
  });
});

describe('POST /admin/purge (docs/protocol.md#privacy)', () => {
  it('deletes entries logged more than twelve months ago, keeps newer ones and every binding', async () => {
    const { service, store, clock } = createHarness();
    const cle = await issue(service, {});
    const start = clock.nowMs;
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr', { ip: '203.0.113.1' });
    clock.nowMs = start + 60 * DAY;
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr', { ip: '203.0.113.2' });
    // Thirteen months after the first call, eleven after the second... roughly: 395 days.
    clock.nowMs = start + 395 * DAY;
    expect(await admin(service, 'POST', '/admin/purge', undefined, 200)).toEqual({ erased: 1 });
    expect(store.requestLog().map((entry) => entry.ip)).toEqual(['203.0.113.2']);
    expect((await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).domains).toEqual([
      expect.objectContaining({ domain: 'a.fr' }),
    ]);
  });
});

describe('administration refusals as problems (routes.ts maps them, and only it)', () => {
  const cause = new Error('connection refused');
  it.each([
    [adminError('INVALID_FIELD', 'id', 'is required'), 400, 'invalid-request', 'Invalid request', 'id: is required'],
    [adminError('KEY_NOT_FOUND', 'ZZZZ'), 404, 'not-found', 'Not found', 'no key ending in ZZZZ'],
    [
      adminError('OPERATOR_ONLY', 'add authors'),
      403,
      'forbidden',
      'Forbidden',
      "only the operator's token may add authors",
    ],
    [
      adminError('KEY_NOT_ALIVE', 'ABCD', 'revocation'),
      409,
      'conflict',
      'Conflict',
      'key ABCD is no longer alive (revocation)',
    ],
    [
      storeUnavailable(cause),
      503,
      'service-unavailable',
      'Service unavailable',
      'the key store is unavailable; try again later',
    ],
  ])('%s: %i %s', (error, status, type, title, detail) => {
    expect(toHttpError(error).toProblem()).toEqual({ type: PROBLEM_BASE + type, title, status, detail });
  });

  it('names each route in the log by its pattern, never by its path (docs/protocol.md#privacy)', () => {
    const named = (method: string, path: string) => adminRouteName(adminRequest(method, path));
    expect(named('GET', '/admin/me')).toBe('GET /admin/me');
    expect(named('GET', '/admin/products')).toBe('GET /admin/products');
    expect(named('POST', '/admin/products')).toBe('POST /admin/products');
    expect(named('GET', '/admin/products/p/activity')).toBe('GET /admin/products/:id/activity');
    expect(named('GET', '/admin/authors')).toBe('GET /admin/authors');
    expect(named('POST', '/admin/authors')).toBe('POST /admin/authors');
    expect(named('GET', '/admin/authors/alice/tokens')).toBe('GET /admin/authors/:id/tokens');
    expect(named('POST', '/admin/authors/alice/tokens')).toBe('POST /admin/authors/:id/tokens');
    expect(named('DELETE', '/admin/authors/alice/tokens/tok_x')).toBe('DELETE /admin/authors/:id/tokens/:tokenId');
    expect(named('PUT', '/admin/authors/alice/tokens/tok_x')).toBe('/admin');
    expect(named('POST', '/admin/webhooks')).toBe('POST /admin/webhooks');
    expect(named('GET', '/admin/webhooks')).toBe('GET /admin/webhooks');
    expect(named('DELETE', '/admin/webhooks/wh_x')).toBe('DELETE /admin/webhooks/:id');
    expect(named('POST', '/admin/webhooks/wh_x/secret')).toBe('POST /admin/webhooks/:id/secret');
    expect(named('GET', '/admin/webhooks/wh_x/deliveries')).toBe('GET /admin/webhooks/:id/deliveries');
    expect(named('POST', '/admin/webhooks/wh_x/deliveries/dlv_y/retry')).toBe(
      'POST /admin/webhooks/:id/deliveries/:deliveryId/retry',
    );
  });

  it('keeps the cause of a store fault, for the log only', () => {
    expect(toHttpError(storeUnavailable(cause)).cause).toBe(cause);
    expect(toHttpError(adminError('KEY_NOT_FOUND', 'ZZZZ')).cause).toBeUndefined();
  });

  it('answers 503 when the store is down, and logs the route and the cause, never the path', async () => {
    const { service, store, logger } = createHarness();
    const cle = await issue(service, {});
    await store.close();
    expectProblem(
      await service.handle(adminRequest('GET', `/admin/keys/${cle}`)),
      503,
      'service-unavailable',
      'the key store is unavailable; try again later',
    );
    const line = logger.lines.find((entry) => entry.level === 'error');
    expect(line?.fields).toMatchObject({
      route: 'GET /admin/keys/:cle',
      status: 503,
      err: { message: 'the key store is unavailable; try again later', cause: { name: 'Error' } },
    });
    expect(logger.text()).not.toContain(normalizeKey(cle));
  });
});
