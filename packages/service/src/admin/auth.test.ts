import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorWithToken, call, newToken } from '../../test/authors.js';
import { ADMIN_TOKEN, admin, adminRequest, createHarness, json } from '../../test/harness.js';
import { ADMIN_AUTH_FAILURES, createAdminAuthFailures } from './auth.js';
import { createMemoryStore } from '@licence/store-memory';
import type { Store } from '../ports/index.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

// docs/protocol.md#administration: at most 10 failed admin authentications per client in any 60 s.

const ATTACKER = '198.51.100.7';
const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const OTHER = '198.51.100.8';

/** `POST /admin/purge` (no body needed) from `ip` with `token` (null: no Authorization). */
function purgeFrom(ip: string, token: string | null, headers: Record<string, string> = {}): ServiceRequest {
  const request = adminRequest('POST', '/admin/purge', undefined, token);
  return { ...request, ip, headers: { ...request.headers, ...headers } };
}

/** A wrong token of the right shape, different each time (so a log line holding one is found). */
const guess = (n: number) => `wrong-guess-${String(n).padStart(4, '0')}-abcdefghijklmnopqrstuvwxyz`;

function expectLockedOut(response: ServiceResponse, retryAfter: number): void {
  expect(response.status).toBe(429);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(response.headers['Retry-After']).toBe(String(retryAfter));
  expect(response.headers['WWW-Authenticate']).toBeUndefined();
  expect(json(response)).toMatchObject({
    type: `${PROBLEM_BASE}rate-limited`,
    status: 429,
    detail: `too many failed admin authentications from this address; retry in ${retryAfter} s`,
  });
}

describe('failed admin authentications, limited per client address', () => {
  it('answers 401 ten times, then 429 with Retry-After to every admin request of that address, the right token included', async () => {
    const { service, clock } = createHarness();
    for (let n = 0; n < ADMIN_AUTH_FAILURES.limit; n += 1) {
      expect((await service.handle(purgeFrom(ATTACKER, guess(n)))).status).toBe(401);
    }
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, guess(10))), 60);
    // The right token is refused alike: a 429 never tells whether a guess was right.
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN)), 60);
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, null)), 60);
    // Another address is not affected.
    expect((await service.handle(purgeFrom(OTHER, ADMIN_TOKEN))).status).toBe(200);

    clock.advance(59_000);
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN)), 1);
    clock.advance(1_000);
    expect((await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN))).status).toBe(200);
  });

  it('is a sliding window: Retry-After counts to the oldest failure leaving it, and a freed place takes one guess', async () => {
    const { service, clock } = createHarness();
    expect((await service.handle(purgeFrom(ATTACKER, guess(0)))).status).toBe(401);
    clock.advance(30_000);
    for (let n = 1; n < 10; n += 1) expect((await service.handle(purgeFrom(ATTACKER, guess(n)))).status).toBe(401);
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN)), 30);

    clock.advance(30_000);
    // The first failure left the window: one more guess, counted, and the window is full again
    // until the nine of 30 s ago leave.
    expect((await service.handle(purgeFrom(ATTACKER, guess(10)))).status).toBe(401);
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN)), 30);
  });

  it('counts a missing Authorization and a malformed one as failures; a success counts nothing', async () => {
    const { service } = createHarness();
    for (let n = 0; n < 20; n += 1) expect((await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN))).status).toBe(200);
    for (let n = 0; n < 5; n += 1) expect((await service.handle(purgeFrom(ATTACKER, null))).status).toBe(401);
    for (let n = 0; n < 5; n += 1) {
      const request = purgeFrom(ATTACKER, null, { authorization: `Basic ${ADMIN_TOKEN}` });
      expect((await service.handle(request)).status).toBe(401);
    }
    expectLockedOut(await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN)), 60);
  });

  it('comes before the route: an unknown admin path is a 429 too while locked out', async () => {
    const { service } = createHarness();
    for (let n = 0; n < 10; n += 1) await service.handle(purgeFrom(ATTACKER, guess(n)));
    const unknown = { ...adminRequest('GET', '/admin/nothing'), ip: ATTACKER };
    expectLockedOut(await service.handle(unknown), 60);
  });

  it('logs each failure and the lockout at warn, with the address and the route, never a token; refused requests add nothing', async () => {
    const { service, logger } = createHarness();
    for (let n = 0; n < 10; n += 1) await service.handle(purgeFrom(ATTACKER, guess(n)));
    for (let n = 10; n < 60; n += 1) await service.handle(purgeFrom(ATTACKER, guess(n)));
    await service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN));

    const events = logger.lines.filter((line) => line.fields.event !== undefined);
    expect(events).toHaveLength(11);
    expect(events.slice(0, 10).every((line) => line.level === 'warn')).toBe(true);
    expect(events[0]?.fields).toEqual({ event: 'admin-auth-failed', ip: ATTACKER, route: 'POST /admin/purge' });
    expect(events[10]).toMatchObject({
      level: 'warn',
      fields: { event: 'admin-auth-locked', ip: ATTACKER, retryAfter: 60 },
    });
    const text = logger.text();
    expect(text).not.toContain(ADMIN_TOKEN);
    for (let n = 0; n < 60; n += 1) expect(text).not.toContain(guess(n));
  });

  it('names the route, never the path: an admin path may hold a key', async () => {
    const { service, logger } = createHarness();
    const cle = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
    await service.handle({ ...adminRequest('GET', `/admin/keys/${cle}`, undefined, guess(0)), ip: ATTACKER });
    expect(logger.lines.map((line) => line.fields)).toContainEqual({
      event: 'admin-auth-failed',
      ip: ATTACKER,
      route: 'GET /admin/keys/:cle',
    });
    expect(logger.text()).not.toContain(cle);
  });

  it('counts the client address of the rate limit: X-Forwarded-For only with trustProxy, IPv6 by its /64', async () => {
    const proxied = createHarness({ trustProxy: { hops: 1 } });
    const viaProxy = (client: string, token: string) =>
      proxied.service.handle(purgeFrom('10.0.0.1', token, { 'x-forwarded-for': client }));
    for (let n = 0; n < 10; n += 1) expect((await viaProxy(ATTACKER, guess(n))).status).toBe(401);
    expectLockedOut(await viaProxy(ATTACKER, ADMIN_TOKEN), 60);
    expect((await viaProxy(OTHER, ADMIN_TOKEN)).status).toBe(200);
    expect(proxied.logger.lines[0]?.fields).toMatchObject({ event: 'admin-auth-failed', ip: ATTACKER });

    // Without trustProxy the header is the client's own text: the socket's address is locked out.
    const direct = createHarness();
    for (let n = 0; n < 10; n += 1) {
      await direct.service.handle(purgeFrom('10.0.0.1', guess(n), { 'x-forwarded-for': `192.0.2.${n}` }));
    }
    expectLockedOut(await direct.service.handle(purgeFrom('10.0.0.1', ADMIN_TOKEN)), 60);

    const v6 = createHarness();
    for (let n = 0; n < 10; n += 1) await v6.service.handle(purgeFrom(`2001:db8:1:2::${n + 1}`, guess(n)));
    expectLockedOut(await v6.service.handle(purgeFrom('2001:db8:1:2:ffff::9', ADMIN_TOKEN)), 60);
    expect((await v6.service.handle(purgeFrom('2001:db8:1:3::1', ADMIN_TOKEN))).status).toBe(200);
  });

  it('keeps one counter per service: two services do not share their failures', async () => {
    const first = createHarness();
    const second = createHarness();
    for (let n = 0; n < 10; n += 1) await first.service.handle(purgeFrom(ATTACKER, guess(n)));
    expect((await first.service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN))).status).toBe(429);
    expect((await second.service.handle(purgeFrom(ATTACKER, ADMIN_TOKEN))).status).toBe(200);
  });
});

describe('createAdminAuthFailures', () => {
  it('tells a full window without counting, and forgets clients whose window emptied', async () => {
    const failures = createAdminAuthFailures();
    for (let client = 0; client < 500; client += 1) await failures.hit(`192.0.2.${client % 250}/${client}`, 0);
    expect(failures.size()).toBe(500);
    expect(failures.retryAfter('192.0.2.1/1', 0)).toBe(0);

    for (let n = 0; n < 10; n += 1) await failures.hit(ATTACKER, 1_000);
    expect(failures.retryAfter(ATTACKER, 1_000)).toBe(60);
    expect(failures.retryAfter(ATTACKER, 1_000)).toBe(60);
    expect(failures.retryAfter(ATTACKER, 31_000)).toBe(30);
    expect(failures.retryAfter(ATTACKER, 61_000)).toBe(0);
    expect(failures.retryAfter('never-seen', 61_000)).toBe(0);

    // A hit a window later drops every client whose failures all left it.
    await failures.hit(OTHER, 61_000);
    expect(failures.size()).toBe(1);
  });
});

describe('author tokens (docs/protocol.md#authors)', () => {
  /** A memory store whose author-token calls a test can count and break. */
  function watchedStore() {
    const store = createMemoryStore();
    const calls = { find: 0, touch: [] as number[] };
    const faults = { find: false, touch: false };
    const watched: Store = {
      ...store,
      findAuthorToken: (hash) => {
        calls.find += 1;
        return faults.find ? Promise.reject(new Error('store down')) : store.findAuthorToken(hash);
      },
      touchAuthorToken: (id, now) => {
        calls.touch.push(now);
        return faults.touch ? Promise.reject(new Error('store down')) : store.touchAuthorToken(id, now);
      },
    };
    return { store: watched, calls, faults };
  }

  const meAs = (token: string, ip = '127.0.0.1'): ServiceRequest => ({
    ...adminRequest('GET', '/admin/me', undefined, token),
    ip,
  });

  it('authenticates as its author; the operator is the operator', async () => {
    const { service, clock } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    expect(alice.token).toMatch(/^lat_[A-Za-z0-9_-]{43}$/);
    expect(json(await service.handle(meAs(alice.token)))).toEqual({
      role: 'author',
      author: { id: 'alice', name: 'Author alice', created: isoSeconds(Math.floor(clock.nowMs / 1000)) },
    });
    expect(json(await service.handle(meAs(ADMIN_TOKEN)))).toEqual({ role: 'operator' });
  });

  it('stops working at once when deleted (204, no body), by its author or by the operator', async () => {
    const { service } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    const second = await newToken(service, 'alice', 'laptop');
    expect((await service.handle(meAs(alice.token))).status).toBe(200);
    const deleted = await service.handle(
      adminRequest('DELETE', `/admin/authors/alice/tokens/${alice.id}`, undefined, alice.token),
    );
    expect(deleted).toEqual({
      status: 204,
      headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
      body: '',
    });
    expect((await service.handle(meAs(alice.token))).status).toBe(401);
    // Deleted twice: no such token (its id is not repeated).
    const again = await service.handle(adminRequest('DELETE', `/admin/authors/alice/tokens/${alice.id}`));
    expect(again.status).toBe(404);
    expect(json(again).detail).toBe('author alice has no such token');

    expect((await service.handle(adminRequest('DELETE', `/admin/authors/alice/tokens/${second.id}`))).status).toBe(204);
    expect((await service.handle(meAs(second.token))).status).toBe(401);
  });

  it('notes its last use at most once a minute, and lists it to the minute', async () => {
    const { store, calls } = watchedStore();
    const { service, clock } = createHarness({ store });
    const alice = await authorWithToken(service, 'alice');
    const listed = async () => (await admin(service, 'GET', '/admin/authors/alice/tokens', undefined, 200)).tokens;
    expect(await listed()).toEqual([{ id: alice.id, label: null, created: expect.any(String), lastUsed: null }]);

    const start = Math.floor(clock.nowMs / 1000);
    await service.handle(meAs(alice.token));
    clock.advance(30_000);
    await service.handle(meAs(alice.token));
    clock.advance(29_000);
    await service.handle(meAs(alice.token));
    expect(calls.touch).toEqual([start]);
    clock.advance(1_000);
    await service.handle(meAs(alice.token));
    await service.handle(meAs(alice.token));
    expect(calls.touch).toEqual([start, start + 60]);
    expect(await listed()).toEqual([
      {
        id: alice.id,
        label: null,
        created: expect.any(String),
        lastUsed: isoSeconds(start + 60),
      },
    ]);
  });

  it('answers even when noting the last use fails: a warning without the token', async () => {
    const { store, faults } = watchedStore();
    const { service, logger } = createHarness({ store });
    const alice = await authorWithToken(service, 'alice');
    faults.touch = true;
    expect((await service.handle(meAs(alice.token))).status).toBe(200);
    const warning = logger.lines.find((line) => line.fields.event === 'author-token-touch-failed');
    expect(warning).toMatchObject({ level: 'warn', fields: { tokenId: alice.id } });
    expect(logger.text()).not.toContain(alice.token);
  });

  it('is a 503 when the store cannot look it up: not a 401, and not a counted failure', async () => {
    const { store, faults } = watchedStore();
    const { service, logger } = createHarness({ store });
    const alice = await authorWithToken(service, 'alice');
    faults.find = true;
    for (let n = 0; n < 15; n += 1) {
      const response = await service.handle(meAs(alice.token, ATTACKER));
      expect(response.status).toBe(503);
      expect(json(response).type).toBe(`${PROBLEM_BASE}service-unavailable`);
    }
    expect(logger.lines.filter((line) => line.fields.event === 'admin-auth-failed')).toEqual([]);
    faults.find = false;
    expect((await service.handle(meAs(alice.token, ATTACKER))).status).toBe(200);
    expect(logger.text()).not.toContain(alice.token);
  });

  it('counts an unknown author token toward the lockout, like a wrong operator token', async () => {
    const { service, logger } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    const unknown = (n: number) => `lat_${String(n).padStart(43, 'x')}`;
    for (let n = 0; n < ADMIN_AUTH_FAILURES.limit; n += 1) {
      const response = await service.handle(meAs(unknown(n), ATTACKER));
      expect(response.status).toBe(401);
      expect(response.headers['WWW-Authenticate']).toBe('Bearer');
    }
    expectLockedOut(await service.handle(meAs(alice.token, ATTACKER)), 60);
    expect((await service.handle(meAs(alice.token, OTHER))).status).toBe(200);
    for (let n = 0; n < 10; n += 1) expect(logger.text()).not.toContain(unknown(n));
  });

  it('looks up only what has the form of an author token', async () => {
    const { store, calls } = watchedStore();
    const { service } = createHarness({ store });
    await service.handle(meAs(guess(1)));
    await service.handle(meAs('lat_short'));
    await service.handle(meAs(ADMIN_TOKEN));
    expect(calls.find).toBe(0);
    await service.handle(meAs(`lat_${'A'.repeat(43)}`));
    expect(calls.find).toBe(1);
  });

  it('never shows a token or its hash in a log line, from creation to deletion', async () => {
    const { service, logger } = createHarness();
    const alice = await authorWithToken(service, 'alice', 'shop');
    await call(service, alice.token, 'GET', '/admin/authors/alice/tokens', undefined, 200);
    await call(service, alice.token, 'POST', '/admin/products', { id: 'p', name: 'P' }, 201);
    await call(service, alice.token, 'GET', '/admin/products/p/activity', undefined, 200);
    await call(service, alice.token, 'POST', '/admin/purge', undefined, 403);
    await call(service, alice.token, 'DELETE', `/admin/authors/alice/tokens/${alice.id}`, undefined, 204);
    await call(service, alice.token, 'GET', '/admin/me', undefined, 401);
    const text = logger.text();
    expect(text).not.toContain(alice.token);
    expect(text).not.toContain(alice.token.slice(4, 20));
    expect(text).not.toContain(createHash('sha256').update(alice.token).digest('hex'));
    // What is logged: the token's id, which is no secret.
    expect(logger.lines.map((line) => line.fields.action)).toEqual(
      expect.arrayContaining(['author.add', 'author-token.create', 'author-token.revoke']),
    );
  });
});
