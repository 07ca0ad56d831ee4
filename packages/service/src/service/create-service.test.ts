import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { parseHost, ValidationError, verifyEnvelope } from '@licence/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admin,
  adminRequest,
  createHarness,
  createTestClock,
  createTestLogger,
  issue,
  TEST_PUBLIC_KEY,
  TEST_SEED,
  verdict,
  verdictRequest,
} from '../../test/harness.js';
import { createService } from './create-service.js';
import { createMemoryRateLimiter } from '../ports/index.js';
import { createMemoryStore } from '@licence/store-memory';
import { createNodeSigner } from '../ports/index.js';
import type { ServiceOptions, ServiceResponse } from '../http/index.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function baseOptions(): ServiceOptions {
  return {
    store: createMemoryStore(),
    rateLimiter: createMemoryRateLimiter(),
    clock: createTestClock(),
    signer: createNodeSigner(TEST_SEED),
    logger: createTestLogger(),
    random: (length) => new Uint8Array(randomBytes(length)),
  };
}

describe('createService', () => {
  it('has no admin API without a token: /admin is a 404 like any unknown path', async () => {
    const service = createService(baseOptions());
    const response = await service.handle(adminRequest('POST', '/admin/products', { id: 'p', author: 'a', name: 'n' }));
    expect(response.status).toBe(404);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
  });

  it('refuses a bad trustProxy at creation, with one clear message', () => {
    expect(() => createService({ ...baseOptions(), trustProxy: { cidrs: ['10.0.0.0/40'] } })).toThrow(
      'trustProxy: "10.0.0.0/40" is not a CIDR (expected a prefix length from 0 to 32)',
    );
    expect(() => createService({ ...baseOptions(), trustProxy: { hops: -2 } })).toThrow(
      'trustProxy: hops must be an integer from 0 to 32, got -2',
    );
  });

  it('puts Cache-Control: no-store and X-Content-Type-Options: nosniff on every answer', async () => {
    const { service } = createHarness();
    const requests = [
      verdictRequest({ cle: 'x', url: 'exemple.fr' }),
      verdictRequest(undefined, { method: 'OPTIONS' }),
      verdictRequest(undefined, { path: '/nope' }),
      adminRequest('POST', '/admin/purge'),
      adminRequest('POST', '/admin/purge', undefined, 'wrong'),
      { ...verdictRequest(undefined, { method: 'GET', path: '/healthz' }) },
    ];
    for (const request of requests) {
      const { headers } = await service.handle(request);
      expect(headers['Cache-Control']).toBe('no-store');
      expect(headers['X-Content-Type-Options']).toBe('nosniff');
    }
  });

  it('purge() deletes log entries older than twelve months, returns the count and logs it', async () => {
    const { service, store, clock, logger } = createHarness();
    const cle = await issue(service, {});
    const start = clock.nowMs;
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    clock.nowMs = start + 2 * 30 * DAY;
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    // Thirteen months after the first entry, eleven after the second.
    clock.nowMs = Date.UTC(2027, 11, 22, 10, 14, 0);
    expect(await service.purge()).toBe(1);
    expect(store.requestLog().map((entry) => entry.at)).toEqual([Math.floor((start + 2 * 30 * DAY) / 1000)]);
    expect(logger.lines.find((line) => line.fields.action === 'purge')?.fields).toMatchObject({ erased: 1 });
    expect(await service.purge()).toBe(0);
  });

  it('purge() also deletes webhook events older than 30 days, with their deliveries, and logs the count', async () => {
    const { service, store, clock, logger } = createHarness();
    const body = { url: 'https://shop.example/hook', events: ['key.issued'] };
    const { id } = await admin(service, 'POST', '/admin/webhooks', body, 201);
    await issue(service, {});
    const old = await store.listWebhookDeliveries(String(id), 100);
    // Delivered, so nothing holds it; a second key's event stays pending.
    const now = Math.floor(clock.nowMs / 1000);
    const attempt = { at: now, status: 204, error: null, durationMs: 3 };
    await store.finishWebhookAttempt(old[0]?.id ?? '', attempt, { status: 'delivered' });
    clock.advance(30 * DAY + 1000);
    await issue(service, {});
    expect(await service.purge()).toBe(0);
    expect(logger.lines.filter((line) => line.fields.action === 'purge').at(-1)?.fields).toMatchObject({
      webhookEvents: 1,
      webhookEventsBefore: iso(clock.nowMs - 30 * DAY),
    });
    const left = await store.listWebhookDeliveries(String(id), 100);
    expect(left.map((delivery) => delivery.id)).not.toContain(old[0]?.id);
    expect(left).toHaveLength(1);
  });

  it('never rejects: a bug in a port is a 500 problem', async () => {
    const { service } = createHarness({
      clock: {
        now: () => {
          throw new Error('clock broke');
        },
      },
    });
    const response = await service.handle(verdictRequest({ cle: 'x', url: 'exemple.fr' }));
    expect(response.status).toBe(500);
    expect(response.headers['Access-Control-Allow-Origin']).toBe('*');
  });
});

describe('createService adminToken: the rule of LICENCE_ADMIN_TOKEN (docs/protocol.md#administration)', () => {
  it.each([
    [
      'white space',
      'an admin token with spaces in it, long enough',
      'holds white space, which an Authorization: Bearer header cannot carry',
    ],
    ['too short', 'short-token', 'must be at least 32 characters, got 11'],
    [
      'too repetitive',
      'ab'.repeat(20),
      'must hold at least 10 different characters, got 2: too repetitive to be a secret',
    ],
  ])('refuses a token with %s at creation, never showing it', (_name, adminToken, fault) => {
    const create = () => createService({ ...baseOptions(), adminToken });
    expect(create).toThrow(ValidationError);
    expect(create).toThrow(`adminToken: ${fault} (value not shown)`);
    try {
      create();
    } catch (error) {
      expect(String(error)).not.toContain(adminToken);
    }
  });

  it('refuses a webhookAllowPrivate that is not a boolean (a JavaScript caller, a "0" from the environment)', () => {
    expect(() => createService(Object.assign(baseOptions(), { webhookAllowPrivate: '0' }))).toThrow(
      'webhookAllowPrivate: expected a boolean',
    );
  });

  it('hands webhookAllowPrivate to the admin API: off, a private URL is a 400; on, it is taken', async () => {
    const body = { url: 'http://192.168.1.20:8080/hook', events: ['key.issued'] };
    const off = createHarness();
    const refused = await off.service.handle(adminRequest('POST', '/admin/webhooks', body));
    expect(refused.status).toBe(400);
    const on = createHarness({ webhookAllowPrivate: true });
    expect((await on.service.handle(adminRequest('POST', '/admin/webhooks', body))).status).toBe(201);
  });

  it('refuses stagingHosts that are not an array of host patterns, quoting the one at fault (docs/protocol.md#staging-hosts)', () => {
    expect(() => createService(Object.assign(baseOptions(), { stagingHosts: '*.recette.fr' }))).toThrow(
      'stagingHosts: expected an array of host name patterns, got string',
    );
    const bad = () => createService({ ...baseOptions(), stagingHosts: ['*.recette.fr', 'recette.*'] });
    expect(bad).toThrow(ValidationError);
    expect(bad).toThrow('stagingHosts: "recette.*" has a "*" outside its leftmost label');
    expect(() => createService({ ...baseOptions(), stagingHosts: ['*.Recette.fr.'] })).not.toThrow();
  });

  it('refuses verdict settings that are not whole numbers of seconds at creation, not at each verdict (docs/protocol.md#verdict)', () => {
    const zero = () => createService({ ...baseOptions(), settings: { revalidateAfter: 0, grace: 1 } });
    expect(zero).toThrow(ValidationError);
    expect(zero).toThrow('settings.revalidateAfter: expected an integer from 1 to 9007199254740991, got 0');
    expect(() => createService(Object.assign(baseOptions(), { settings: { revalidateAfter: 60 } }))).toThrow(
      'settings.grace: expected a number, got undefined',
    );
    expect(() => createService(Object.assign(baseOptions(), { settings: null }))).toThrow(
      'settings: expected an object, got null',
    );
  });

  it('answers with the settings it was given, unchanged by a later change to the object handed in', async () => {
    const settings = { revalidateAfter: 3600, grace: 604800 };
    const { service, clock } = createHarness({ settings });
    settings.revalidateAfter = 0;
    const key = await issue(service, { sites: 1 });
    const donnees = await verdict(service, { cle: key, url: 'exemple.fr' }, 'exemple.fr');
    expect(donnees.revalider).toBe(Math.floor(clock.now() / 1000) + 3600);
    expect(donnees.sursis).toBe(604800);
  });

  it('refuses a token that is not a string (a JavaScript caller)', () => {
    // What a JavaScript caller can pass: the type says string, the value is a number.
    expect(() => createService(Object.assign(baseOptions(), { adminToken: 42 }))).toThrow(
      'adminToken: expected a string',
    );
  });

  it('takes a good token, and an empty one as none (the admin API off)', async () => {
    const good = createService({ ...baseOptions(), adminToken: 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s' });
    const on = await good.handle(adminRequest('POST', '/admin/purge', undefined, 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s'));
    expect(on.status).toBe(200);
    const off = createService({ ...baseOptions(), adminToken: '' });
    expect((await off.handle(adminRequest('POST', '/admin/purge', undefined, ''))).status).toBe(404);
  });
});

describe('Content-Encoding of a request body (docs/protocol.md#request)', () => {
  const BODY = { cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', url: 'exemple.fr' };
  const gzipped = new Uint8Array(gzipSync(JSON.stringify(BODY)));
  const encoded = (encoding: string, body: unknown = gzipped, contentType = 'application/json') =>
    verdictRequest(body, { contentType, headers: { 'content-encoding': encoding } });

  function expectCodingRefused(response: ServiceResponse, cors: boolean): void {
    expect(response.status).toBe(415);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    // RFC 9110 12.5.3: what tells a content-coding 415 from a media-type one.
    expect(response.headers['Accept-Encoding']).toBe('identity');
    expect(response.headers['Access-Control-Allow-Origin']).toBe(cors ? '*' : undefined);
    expect(JSON.parse(response.body)).toEqual({
      type: 'https://licence.dev/problems/unsupported-media-type',
      title: 'Unsupported media type',
      status: 415,
      detail: 'Content-Encoding is not supported: send the body uncompressed',
    });
  }

  it.each(['gzip', 'GZIP', 'deflate', 'br', 'zstd', 'x-gzip', 'identity, gzip', 'gzip, identity', 'nonsense'])(
    'answers 415 with Accept-Encoding: identity for a body sent with Content-Encoding %j',
    async (encoding) => {
      const { service } = createHarness();
      expectCodingRefused(await service.handle(encoded(encoding)), true);
    },
  );

  it.each(['identity', 'Identity', ' identity , IDENTITY ', ''])(
    'reads a body sent with Content-Encoding %j',
    async (encoding) => {
      const { service } = createHarness();
      expect((await service.handle(encoded(encoding, BODY))).status).toBe(200);
    },
  );

  it('comes after the size, before the content type; counts toward the rate limit; leaves the media-type 415 without Accept-Encoding', async () => {
    const { service } = createHarness({ limit: 3 });
    expect((await service.handle(encoded('gzip', new Uint8Array(9000)))).status).toBe(413);
    expectCodingRefused(await service.handle(encoded('gzip', gzipped, 'text/plain')), true);
    const mediaType = await service.handle(verdictRequest(BODY, { contentType: 'text/plain' }));
    expect(mediaType.status).toBe(415);
    expect(mediaType.headers['Accept-Encoding']).toBeUndefined();
    expect((await service.handle(encoded('gzip'))).status).toBe(429);
  });

  it('applies only to a request with a body: an empty one is the empty-body 400', async () => {
    const { service } = createHarness();
    const response = await service.handle(encoded('gzip', ''));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ detail: 'body: is empty; expected a JSON object' });
  });

  it('holds for the admin API when a body is sent', async () => {
    const { service } = createHarness();
    const product = gzipSync(JSON.stringify({ id: 'p', author: 'a', name: 'n' }));
    const request = adminRequest('POST', '/admin/products', new Uint8Array(product));
    const refused = await service.handle({ ...request, headers: { ...request.headers, 'content-encoding': 'gzip' } });
    expectCodingRefused(refused, false);
    const purge = adminRequest('POST', '/admin/purge');
    const bodyless = await service.handle({ ...purge, headers: { ...purge.headers, 'content-encoding': 'gzip' } });
    expect(bodyless.status).toBe(200);
  });
});

describe('hostile bodies (property, at least 2,000 random requests)', () => {
  it('never answers 5xx, and never a 200 without a valid signature for the host, product and nonce sent', async () => {
    const { service, logger } = createHarness({ rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
    const buyer = await issue(service, { sites: 3 });
    const dev = await issue(service, { produit: 'autre', kind: 'dev' });
    const revoked = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${revoked}/revoke`, undefined, 200);
    const keys = [buyer, dev, revoked];

    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const cle = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          ...keys,
          ...keys.map((key) => key.toLowerCase()),
          ...keys.map((key) => ` ${key.replace(/-/g, ' ')} `),
        ),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1000, maxLength: 1100 }) },
      { weight: 1, arbitrary: anyJson },
    );
    const url = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'exemple.fr',
          'www.exemple.fr',
          'https://shop.exemple.fr:8443/x?y=1',
          'localhost:3000',
          'dev.exemple.fr',
          '192.168.1.2',
          '[::1]',
          '[fe80::1%25eth0]',
          'co.uk',
          'myshopify.com',
          'a.myshopify.com',
          'http://user@exemple.fr',
          'exemple.fr\\x',
          'exemple%2efr',
          'exemple。fr',
          'xn--',
          'ftp://exemple.fr',
          'http:\\\\exemple.fr',
          '8.8.8.8',
          ' ',
        ),
      },
      { weight: 2, arbitrary: fc.webUrl() },
      { weight: 2, arbitrary: fc.domain() },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
      { weight: 1, arbitrary: anyJson },
    );
    const optional = (value: fc.Arbitrary<unknown>, freq = 2) => fc.option(value, { nil: undefined, freq });
    const produit = optional(
      fc.oneof(fc.constantFrom('mon-theme', 'autre', 'x', ''), fc.string({ maxLength: 70 }), anyJson),
    );
    const nonce = optional(
      fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/), fc.string({ unit: 'binary', maxLength: 70 }), anyJson),
    );
    const fieldsBody = fc.record({ cle: optional(cle, 15), url: optional(url, 15), produit, nonce }).map((fields) => {
      const body: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) body[name] = value;
      return body;
    });
    const rawBody = fc.oneof(
      fc.uint8Array({ maxLength: 9000 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      anyJson.map((value) => JSON.stringify(value)),
    );
    const request = fc.record({
      body: fc.oneof({ weight: 4, arbitrary: fieldsBody }, { weight: 1, arbitrary: rawBody }),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
        { weight: 1, arbitrary: fc.constant('text/plain') },
      ),
    });

    let signed = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ body, contentType }) => {
        const response = await service.handle(verdictRequest(body, { contentType }));
        expect(response.status).toBeLessThan(500);
        expect([200, 400, 413, 415]).toContain(response.status);
        if (response.status !== 200) {
          expect(response.headers['Content-Type']).toBe('application/problem+json');
          return;
        }
        // docs/protocol.md#canonical-form: the service itself only ever emits ASCII in donnees
        // (printable ASCII, as the canonical form escapes control characters; the signature is
        // base64).
        expect(response.body).toMatch(/^[\x20-\x7e]*$/);
        // A 200 only for a well-formed object body: rebuild what the caller expects and verify.
        if (typeof body !== 'object' || body instanceof Uint8Array) throw new Error('200 for a raw body');
        const expect_ = {
          hote: parseHost(body.url).hote,
          ...(typeof body.produit === 'string' ? { produit: body.produit } : {}),
          ...(typeof body.nonce === 'string' ? { nonce: body.nonce } : {}),
        };
        expect(verifyEnvelope(JSON.parse(response.body), [TEST_PUBLIC_KEY], expect_)).toBe(true);
        signed += 1;
      }),
      { numRuns: 2_000 },
    );
    // The property saw real verdicts, not only refusals.
    expect(signed).toBeGreaterThan(100);
    // Log hygiene: no key that was used appears in any log line.
    const text = logger.text();
    for (const key of keys) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.replace(/-/g, ''));
      expect(text).not.toContain(key.replace(/-/g, '').slice(0, 12));
    }
  }, 60_000);
});
