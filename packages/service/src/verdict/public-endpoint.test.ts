import { verifyEnvelope } from '@licence/core';
import { describe, expect, it } from 'vitest';
import {
  adminRequest,
  createHarness,
  issue,
  json,
  TEST_PUBLIC_KEY,
  verdict,
  verdictRequest,
} from '../../test/harness.js';
import { createMemoryRateLimiter } from '../ports/index.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ServiceResponse } from '../http/index.js';

const UNKNOWN = { cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', url: 'exemple.fr' };

/** Asserts a problem+json answer of `status` and `type`, with the public endpoint's headers. */
function expectProblem(response: ServiceResponse, status: number, type: string, cors = true): Record<string, unknown> {
  expect(response.status).toBe(status);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(response.headers['Cache-Control']).toBe('no-store');
  if (cors) expect(response.headers['Access-Control-Allow-Origin']).toBe('*');
  const body = json(response);
  expect(body).toEqual({ type: PROBLEM_BASE + type, title: expect.any(String), status, detail: expect.any(String) });
  return body;
}

describe('the public endpoint: paths and methods (docs/protocol.md#request)', () => {
  it.each(['/api/licence', '/api/license'])('answers POST %s with a signed verdict', async (path) => {
    const { service } = createHarness();
    const response = await service.handle(verdictRequest(UNKNOWN, { path }));
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
    });
    const envelope: unknown = JSON.parse(response.body);
    expect(verifyEnvelope(envelope, [TEST_PUBLIC_KEY], { hote: 'exemple.fr' })).toBe(true);
    expect(json(response).donnees).toMatchObject({ ok: false, motif: 'inconnue', domaine: '', quand: '' });
  });

  it.each(['/api/licence', '/api/license'])('answers OPTIONS %s with 204 and CORS, unfiltered', async (path) => {
    const { service } = createHarness();
    const response = await service.handle(verdictRequest(undefined, { path, method: 'OPTIONS', ua: undefined }));
    expect(response).toEqual({
      status: 204,
      headers: {
        Allow: 'OPTIONS, POST',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'OPTIONS, POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '86400',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
      body: '',
    });
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'post'])('answers %s with 405 and Allow', async (method) => {
    const { service } = createHarness();
    const response = await service.handle(verdictRequest(UNKNOWN, { method }));
    expectProblem(response, 405, 'method-not-allowed');
    expect(response.headers.Allow).toBe('OPTIONS, POST');
  });

  it.each(['/', '/api', '/api/licence/', '/api/licences', '/API/LICENCE', '/api/licence/x', '/admin/keys'])(
    'answers an unknown path %s with 404 problem+json',
    async (path) => {
      const { service } = createHarness({ adminToken: '' });
      const response = await service.handle(verdictRequest(UNKNOWN, { path }));
      expectProblem(response, 404, 'not-found', false);
    },
  );
});

describe('the order of checks (docs/protocol.md#request)', () => {
  it('404 before everything: a blocked UA on a wrong path is a 404', async () => {
    const { service } = createHarness();
    const response = await service.handle(verdictRequest(UNKNOWN, { path: '/api/nope', ua: 'curl/8.5.0' }));
    expect(response.status).toBe(404);
  });

  it.each([
    ['GET', '/api/nope'],
    ['PUT', '/api/licences'],
    ['DELETE', '/api/licence/x'],
  ])('404 before 405: %s %s is a 404, not a 405', async (method, path) => {
    const { service } = createHarness();
    expectProblem(await service.handle(verdictRequest(UNKNOWN, { method, path })), 404, 'not-found', false);
  });

  it('405 before 403', async () => {
    const { service } = createHarness();
    expect((await service.handle(verdictRequest(UNKNOWN, { method: 'GET', ua: 'curl/8.5.0' }))).status).toBe(405);
  });

  it('403 before 429: a blocked UA is refused even when the limit is reached, and does not count', async () => {
    const { service } = createHarness({ limit: 1 });
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN, { ua: 'curl/8.5.0' }))).status).toBe(403);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(429);
  });

  it('429 before 413, 413 before 415, 415 before 400', async () => {
    const { service } = createHarness({ limit: 3 });
    const big = new Uint8Array(9000);
    expect((await service.handle(verdictRequest(big, { contentType: 'text/plain' }))).status).toBe(413);
    expect((await service.handle(verdictRequest('{broken', { contentType: 'text/plain' }))).status).toBe(415);
    expect((await service.handle(verdictRequest('{broken'))).status).toBe(400);
    expect((await service.handle(verdictRequest(big, { contentType: 'text/plain' }))).status).toBe(429);
  });
});

describe('the User-Agent filter (docs/protocol.md#user-agent-filter)', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['curl', 'curl/8.5.0'],
    ['python-requests', 'python-requests/2.31.0'],
    ['Go', 'Go-http-client/1.1'],
    ['undici', 'undici'],
  ])('refuses a %s User-Agent with 403', async (_name, ua) => {
    const { service } = createHarness();
    expectProblem(await service.handle(verdictRequest(UNKNOWN, { ua })), 403, 'user-agent-blocked');
  });

  it('lets a product that mentions curl through', async () => {
    const { service } = createHarness();
    expect((await service.handle(verdictRequest(UNKNOWN, { ua: 'MonTheme/1.2 (curl)' }))).status).toBe(200);
  });

  it('takes a configured list', async () => {
    const { service } = createHarness({ blockedUserAgents: [/^MonTheme\//] });
    expect((await service.handle(verdictRequest(UNKNOWN, { ua: 'curl/8.5.0' }))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN, { ua: 'MonTheme/1.2' }))).status).toBe(403);
  });
});

describe('the rate limit (docs/protocol.md#rate-limit)', () => {
  it('accepts 30 at once, answers the 31st with 429 and Retry-After, and opens as the window slides', async () => {
    const { service, clock } = createHarness();
    for (let i = 0; i < 30; i += 1) expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    const refused = await service.handle(verdictRequest(UNKNOWN));
    expectProblem(refused, 429, 'rate-limited');
    expect(refused.headers['Retry-After']).toBe('60');
    clock.advance(45_000);
    expect((await service.handle(verdictRequest(UNKNOWN))).headers['Retry-After']).toBe('15');
    clock.advance(15_000);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
  });

  it('does not count 404, 405, 403 or OPTIONS', async () => {
    const { service } = createHarness({ limit: 2 });
    for (let i = 0; i < 10; i += 1) {
      await service.handle(verdictRequest(UNKNOWN, { path: '/nope' }));
      await service.handle(verdictRequest(UNKNOWN, { method: 'GET' }));
      await service.handle(verdictRequest(UNKNOWN, { ua: 'curl/8.5.0' }));
      expect((await service.handle(verdictRequest(undefined, { method: 'OPTIONS' }))).status).toBe(204);
    }
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(429);
  });

  it("does not count /admin or /healthz (docs/protocol.md#request: the limit is the public endpoint's only)", async () => {
    const { service } = createHarness({ rateLimiter: createMemoryRateLimiter({ limit: 2 }) });
    for (let i = 0; i < 10; i += 1) {
      // Same client address as the public POSTs below, so a shared count would show.
      const request = adminRequest('POST', '/admin/products', { id: `p${i}`, author: 'a', name: 'n' });
      expect((await service.handle({ ...request, ip: '203.0.113.7' })).status).toBe(201);
      const health = await service.handle({
        method: 'GET',
        path: '/healthz',
        headers: {},
        body: new Uint8Array(0),
        ip: '203.0.113.7',
      });
      expect(health.status).toBe(200);
    }
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(200);
    expectProblem(await service.handle(verdictRequest(UNKNOWN)), 429, 'rate-limited');
  });

  it('counts 413, 415 and 400', async () => {
    const { service } = createHarness({ limit: 3 });
    expect((await service.handle(verdictRequest(null))).status).toBe(413);
    expect((await service.handle(verdictRequest(UNKNOWN, { contentType: 'text/plain' }))).status).toBe(415);
    expect((await service.handle(verdictRequest({ url: 'exemple.fr' }))).status).toBe(400);
    expect((await service.handle(verdictRequest(UNKNOWN))).status).toBe(429);
  });

  it('counts each IPv4 apart, IPv6 per /64, and an IPv4-mapped address as its IPv4', async () => {
    const { service } = createHarness({ limit: 1 });
    const status = async (ip: string) => (await service.handle(verdictRequest(UNKNOWN, { ip }))).status;
    expect(await status('203.0.113.1')).toBe(200);
    expect(await status('203.0.113.2')).toBe(200);
    expect(await status('::ffff:203.0.113.1')).toBe(429);
    expect(await status('2001:db8:1:2::1')).toBe(200);
    expect(await status('2001:db8:1:2:ffff::9')).toBe(429);
    expect(await status('2001:db8:1:3::1')).toBe(200);
  });

  it('is per forwarded client behind a trusted proxy (hops)', async () => {
    const { service, store } = createHarness({ limit: 1, trustProxy: { hops: 1 } });
    const via = (client: string) =>
      verdictRequest(UNKNOWN, { ip: '10.0.0.2', headers: { 'x-forwarded-for': `198.51.100.9, ${client}` } });
    expect((await service.handle(via('203.0.113.1'))).status).toBe(200);
    expect((await service.handle(via('203.0.113.2'))).status).toBe(200);
    expect((await service.handle(via('203.0.113.1'))).status).toBe(429);
    // The request log keeps the forwarded client, not the proxy (docs/protocol.md#privacy,
    // #client-address).
    expect(store.requestLog().map((entry) => entry.ip)).toEqual(['203.0.113.1', '203.0.113.2']);
  });

  it('is per forwarded client behind trusted CIDRs, and ignores the header from an untrusted peer', async () => {
    const { service, store } = createHarness({ limit: 1, trustProxy: { cidrs: ['10.0.0.0/8'] } });
    const xff = { 'x-forwarded-for': '203.0.113.5, 10.0.0.3' };
    expect((await service.handle(verdictRequest(UNKNOWN, { ip: '10.0.0.2', headers: xff }))).status).toBe(200);
    expect((await service.handle(verdictRequest(UNKNOWN, { ip: '198.51.100.7', headers: xff }))).status).toBe(200);
    expect(store.requestLog().map((entry) => entry.ip)).toEqual(['203.0.113.5', '198.51.100.7']);
  });

  it('ignores X-Forwarded-For without trustProxy', async () => {
    const { service, store } = createHarness();
    await service.handle(verdictRequest(UNKNOWN, { headers: { 'x-forwarded-for': '198.51.100.1' } }));
    expect(store.requestLog()[0]?.ip).toBe('203.0.113.7');
  });
});

describe('body size and content type (docs/protocol.md#request)', () => {
  it('accepts exactly 8 KiB and refuses one byte more', async () => {
    const { service } = createHarness();
    const text = JSON.stringify(UNKNOWN);
    const exact = text + ' '.repeat(8192 - text.length);
    expect((await service.handle(verdictRequest(exact))).status).toBe(200);
    expectProblem(await service.handle(verdictRequest(`${exact} `)), 413, 'body-too-large');
  });

  it('answers 413 when the adapter stopped reading (body null)', async () => {
    const { service } = createHarness();
    expectProblem(await service.handle(verdictRequest(null)), 413, 'body-too-large');
  });

  it.each([undefined, 'text/plain', 'application/x-www-form-urlencoded', 'text/json; charset=utf-8'])(
    'answers 415 for Content-Type %j',
    async (contentType) => {
      const { service } = createHarness();
      expectProblem(await service.handle(verdictRequest(UNKNOWN, { contentType })), 415, 'unsupported-media-type');
    },
  );

  it.each([
    'application/json; charset=utf-8',
    'APPLICATION/JSON;CHARSET=UTF-8',
    // docs/protocol.md#request: a charset parameter is fine, any charset: the body is read as UTF-8
    // anyway.
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
  ])('accepts %j', async (contentType) => {
    const { service } = createHarness();
    expect((await service.handle(verdictRequest(UNKNOWN, { contentType }))).status).toBe(200);
  });

  it('reads the body as UTF-8 whatever the charset says (RFC 8259 8.1): Latin-1 bytes are a 400', async () => {
    const { service } = createHarness();
    // "é" in Latin-1 is the lone byte 0xE9, which is not UTF-8.
    const latin1 = new Uint8Array(Buffer.from('{"cle":"ZZZZZ","url":"caf\u00e9.fr"}', 'latin1'));
    const response = await service.handle(verdictRequest(latin1, { contentType: 'application/json; charset=latin1' }));
    expect(expectProblem(response, 400, 'invalid-request').detail).toBe('body: not valid UTF-8');
  });
});

describe('the body (docs/protocol.md#request, #key-normalisation, #host-normalisation, #product-and-nonce)', () => {
  const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
  it.each([
    ['invalid JSON', `{"cle":"${KEY}",`, 'body: not valid JSON'],
    ['an empty body', '', 'body: is empty; expected a JSON object'],
    ['an array', '[]', 'body: expected a JSON object, got array'],
    ['a string', '"x"', 'body: expected a JSON object, got string'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), 'body: not valid UTF-8'],
    ['no cle', { url: 'exemple.fr' }, 'cle: is required'],
    ['an empty cle', { cle: '', url: 'exemple.fr' }, 'cle: is empty'],
    ['a cle of dashes', { cle: '-- --', url: 'exemple.fr' }, 'cle: holds no letter or digit'],
    ['a number cle', { cle: 12345, url: 'exemple.fr' }, 'cle: expected a string, got number'],
    ['a null cle', { cle: null, url: 'exemple.fr' }, 'cle: expected a string, got null'],
    ['a cle over 1024', { cle: 'A'.repeat(1025), url: 'exemple.fr' }, 'cle: longer than 1024 characters'],
    ['no url', { cle: KEY }, 'url: is required'],
    ['an array url', { cle: KEY, url: ['exemple.fr'] }, 'url: expected a string, got array'],
    ['an ftp url', { cle: KEY, url: 'ftp://exemple.fr' }, 'url: scheme must be http or https, got ftp'],
    ['a public suffix', { cle: KEY, url: 'co.uk' }, 'url: host is a public suffix (co.uk) and names no site'],
    [
      'a bad produit',
      { cle: KEY, url: 'exemple.fr', produit: 'Mon Theme' },
      'produit: expected only a-z, 0-9, ".", "_" and "-"',
    ],
    ['an empty produit', { cle: KEY, url: 'exemple.fr', produit: '' }, 'produit: expected 1 to 64 characters, got 0'],
    ['a short nonce', { cle: KEY, url: 'exemple.fr', nonce: 'abc' }, 'nonce: expected 16 to 64 characters, got 3'],
    [
      'a number nonce',
      { cle: KEY, url: 'exemple.fr', nonce: 1234567890123456 },
      'nonce: expected a string, got number',
    ],
  ])('answers %s with 400 and an exact detail, never the key', async (_name, body, detail) => {
    const { service, logger } = createHarness();
    const response = await service.handle(verdictRequest(body));
    expect(expectProblem(response, 400, 'invalid-request').detail).toBe(detail);
    expect(response.body).not.toContain(KEY);
    expect(response.body).not.toContain('ABCDE');
    expect(logger.text()).not.toContain('ABCDE');
  });

  it('checks the key length before anything else (docs/protocol.md#key-normalisation)', async () => {
    const { service } = createHarness();
    const response = await service.handle(verdictRequest({ cle: 'A'.repeat(1025), url: 'ftp://x' }));
    expect(json(response).detail).toBe('cle: longer than 1024 characters');
  });

  it('ignores unknown fields', async () => {
    const { service } = createHarness();
    const body = `{"cle":"${UNKNOWN.cle}","url":"exemple.fr","extra":[1,2],"__proto__":{"cle":"x"},"constructor":1}`;
    const response = await service.handle(verdictRequest(body));
    expect(response.status).toBe(200);
    expect(json(response).donnees).toMatchObject({ motif: 'inconnue', hote: 'exemple.fr' });
  });

  it('echoes produit and nonce inside the signed donnees only when sent (docs/protocol.md#product-and-nonce)', async () => {
    const { service } = createHarness();
    const cle = await issue(service, {});
    const nonce = 'n0nce-0123456789_abc';
    const withBoth = await verdict(service, { cle, url: 'exemple.fr', produit: 'mon-theme', nonce }, 'exemple.fr');
    expect(withBoth).toMatchObject({ ok: true, produit: 'mon-theme', nonce });
    const plain = await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    expect(Object.keys(plain).sort()).toEqual([
      'domaine',
      'emis',
      'essai',
      'hote',
      'motif',
      'ok',
      'quand',
      'revalider',
      'sursis',
    ]);
  });

  it('sets emis to the clock and revalider and sursis from the settings', async () => {
    const { service, clock } = createHarness({ settings: { revalidateAfter: 3600, grace: 604800 } });
    const donnees = await verdict(service, UNKNOWN, 'exemple.fr');
    const emis = Math.floor(clock.nowMs / 1000);
    expect(donnees).toMatchObject({ emis, revalider: emis + 3600, sursis: 604800 });
    const defaults = createHarness();
    expect(await verdict(defaults.service, UNKNOWN, 'exemple.fr')).toMatchObject({
      revalider: emis + 86400,
      sursis: 2592000,
    });
  });
});

describe('faults are 5xx, never a signed refusal (docs/protocol.md#errors)', () => {
  it('answers 503 when the store rejects, and logs it without the key', async () => {
    const harness = createHarness();
    const cle = await issue(harness.service, {});
    const failing = createHarness({
      store: { ...harness.store, findKeyByHash: () => Promise.reject(new Error('database is locked')) },
    });
    const response = await failing.service.handle(verdictRequest({ cle, url: 'exemple.fr' }));
    expectProblem(response, 503, 'service-unavailable');
    expect(response.body).not.toContain('donnees');
    const errors = failing.logger.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('database is locked');
    expect(failing.logger.text()).not.toContain(cle.replace(/-/g, '').slice(0, 10));
  });

  it.each(['bindDomain', 'logRequest'] as const)('answers 503 when %s rejects', async (method) => {
    const harness = createHarness();
    const cle = await issue(harness.service, {});
    const failing = createHarness({
      store: { ...harness.store, [method]: () => Promise.reject(new Error('disk I/O error')) },
    });
    expectProblem(await failing.service.handle(verdictRequest({ cle, url: 'exemple.fr' })), 503, 'service-unavailable');
  });

  it('answers 500 for a stored record core refuses (a bad record)', async () => {
    const harness = createHarness();
    const cle = await issue(harness.service, {});
    const broken = createHarness({
      store: {
        ...harness.store,
        findKeyByHash: async (hash) => {
          const found = await harness.store.findKeyByHash(hash);
          return found === null ? null : { ...found, status: 'revocation', endedAt: null };
        },
      },
    });
    const response = await broken.service.handle(verdictRequest({ cle, url: 'exemple.fr' }));
    expectProblem(response, 500, 'internal-error');
    expect(json(response).detail).toBe('the stored key record is invalid');
    expect(broken.logger.lines.some((line) => line.level === 'error')).toBe(true);
  });

  it('answers 503 when the rate limiter rejects', async () => {
    const { service } = createHarness({ rateLimiter: { hit: () => Promise.reject(new Error('redis down')) } });
    expectProblem(await service.handle(verdictRequest(UNKNOWN)), 503, 'service-unavailable');
  });

  it('answers 500 when signing fails', async () => {
    const { service } = createHarness({
      signer: {
        publicKey: new Uint8Array(32),
        sign: () => {
          throw new Error('HSM unplugged');
        },
      },
    });
    expectProblem(await service.handle(verdictRequest(UNKNOWN)), 500, 'internal-error');
  });

  it('keeps the admin API and the public endpoint apart: no UA filter or limit on /admin', async () => {
    const { service } = createHarness({ limit: 1 });
    await service.handle(verdictRequest(UNKNOWN));
    const request = adminRequest('POST', '/admin/products', { id: 'p', author: 'a', name: 'n' });
    expect(
      (await service.handle({ ...request, headers: { ...request.headers, 'user-agent': 'curl/8.5.0' } })).status,
    ).toBe(201);
    expect(
      (await service.handle(adminRequest('POST', '/admin/products', { id: 'q', author: 'a', name: 'n' }))).status,
    ).toBe(201);
  });
});
