import { describe, expect, it } from 'vitest';
import {
  admin,
  createHarness,
  createTestClock,
  createTestLogger,
  type Harness,
  issue,
  json,
  TEST_SEED,
  toBytes,
  verdictRequest,
} from '../../test/harness.js';
import { BUYER_PAGE_HEADERS } from './page.js';
import { handleBuyer } from './routes.js';
import { compileTrustProxy } from '../http/index.js';
import { createMemoryRateLimiter } from '../ports/index.js';
import { createMemoryStore } from '@licence/store-memory';
import { createNodeSigner } from '../ports/index.js';
import { createNodeVerifier, type Verifier } from '../ports/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';
import { DEFAULT_BLOCKED_USER_AGENTS } from '../verdict/index.js';

/**
 * The buyer pages' rate limit (docs/protocol.md#buyer-links): per client address, in its own budget
 * of the service's RateLimiter, counted before the token's signature is checked, answered with a
 * 429 page (or problem) and `Retry-After`.
 */

const ORIGIN = 'http://licences.test';
/** The audit's forged token: a well-formed payload (`9999999999.1.ABCD`) and 64 bytes of signature. */
const FORGED = `${Buffer.from('9999999999.1.ABCD').toString('base64url')}.${Buffer.alloc(64, 7).toString('base64url')}`;

function buyerRequest(method: string, path: string, init: Partial<ServiceRequest> = {}): ServiceRequest {
  return {
    method,
    path,
    body: null,
    ip: '198.51.100.4',
    ...init,
    headers: { host: 'licences.test', origin: ORIGIN, ...init.headers },
  };
}

const page = (harness: Harness, init: Partial<ServiceRequest> = {}) =>
  harness.service.handle(buyerRequest('GET', `/buyer/${FORGED}`, init));

/** Spends `count` requests of the address's buyer budget (each a 404: the token is forged). */
async function spend(harness: Harness, count: number, init: Partial<ServiceRequest> = {}): Promise<void> {
  for (let i = 0; i < count; i += 1) expect((await page(harness, init)).status).toBe(404);
}

function expectRefused(response: ServiceResponse, retryAfter: string): void {
  expect(response.status).toBe(429);
  expect(response.headers['Retry-After']).toBe(retryAfter);
  for (const [name, value] of Object.entries(BUYER_PAGE_HEADERS)) expect(response.headers[name]).toBe(value);
}

describe('the buyer pages rate limit (docs/protocol.md#buyer-links)', () => {
  it('answers the 429 page with Retry-After once the address has spent its budget, in its language', async () => {
    const harness = createHarness({ publicUrl: ORIGIN, limit: 3 });
    await spend(harness, 3);
    harness.clock.advance(18_000);
    const refused = await page(harness);
    expectRefused(refused, '42');
    expect(refused.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(refused.headers.Vary).toBe('Accept-Language');
    expect(refused.body).toContain('<h1>Too many requests</h1>');
    expect(refused.body).toContain('Wait 42\u00a0seconds, then open your link again.');
    const french = await page(harness, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expectRefused(french, '42');
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('<h1>Trop de demandes</h1>');
    const head = await harness.service.handle(buyerRequest('HEAD', `/buyer/${FORGED}`));
    expectRefused(head, '42');
    expect(head.body).toBe('');
    // The refusals were not counted: the oldest request leaves the window 60 s after it came.
    harness.clock.advance(42_000);
    expect((await page(harness)).status).toBe(404);
  });

  it('checks no signature once the address is over its budget', async () => {
    let checked = 0;
    const real = createNodeVerifier(createNodeSigner(TEST_SEED).publicKey);
    const counting: Verifier = {
      publicKey: real.publicKey,
      verify(signature, message) {
        checked += 1;
        return real.verify(signature, message);
      },
    };
    const context = contextWith(counting, 2);
    const get = () => handleBuyer(context, buyerRequest('GET', `/buyer/${FORGED}`));
    expect((await get()).status).toBe(404);
    expect((await get()).status).toBe(404);
    expect(checked).toBe(2);
    for (let i = 0; i < 5; i += 1) expect((await get()).status).toBe(429);
    expect(checked).toBe(2);
    const post = await handleBuyer(
      context,
      buyerRequest('POST', `/buyer/${FORGED}/transfer`, { headers: { 'content-type': 'application/json' } }),
    );
    expect(post.status).toBe(429);
    expect(checked).toBe(2);
  });

  it('keeps its budget apart from the verdicts: neither spends the other', async () => {
    const harness = createHarness({ publicUrl: ORIGIN, limit: 2 });
    const ip = '198.51.100.4';
    await spend(harness, 2);
    expect((await page(harness)).status).toBe(429);
    const cle = await issue(harness.service, {});
    const asked = () => harness.service.handle(verdictRequest({ cle, url: 'https://boutique.fr/' }, { ip }));
    expect((await asked()).status).toBe(200);
    expect((await asked()).status).toBe(200);
    expect((await asked()).status).toBe(429);

    const other = createHarness({ publicUrl: ORIGIN, limit: 2 });
    const key = await issue(other.service, {});
    for (let i = 0; i < 3; i += 1) {
      await other.service.handle(verdictRequest({ cle: key, url: 'https://boutique.fr/' }, { ip }));
    }
    const link = await admin(other.service, 'POST', `/admin/keys/${key}/buyer-link`, {}, 201);
    const path = `/buyer/${String(link.url).split('/buyer/')[1]}`;
    expect((await other.service.handle(buyerRequest('GET', path))).status).toBe(200);
  });

  it('counts per address, an IPv6 address by its /64, and X-Forwarded-For only with trustProxy', async () => {
    const harness = createHarness({ publicUrl: ORIGIN, limit: 1 });
    await spend(harness, 1);
    expect((await page(harness)).status).toBe(429);
    expect((await page(harness, { ip: '198.51.100.5' })).status).toBe(404);
    // Any address can write X-Forwarded-For: without trustProxy it is not read.
    expect((await page(harness, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(429);
    await spend(harness, 1, { ip: '2001:db8:1:2::1' });
    expect((await page(harness, { ip: '2001:db8:1:2:ffff::9' })).status).toBe(429);
    expect((await page(harness, { ip: '2001:db8:1:3::1' })).status).toBe(404);

    const proxied = createHarness({ publicUrl: ORIGIN, limit: 1, trustProxy: { hops: 1 } });
    const via = (client: string) => page(proxied, { ip: '10.0.0.1', headers: { 'x-forwarded-for': client } });
    expect((await via('203.0.113.9')).status).toBe(404);
    expect((await via('203.0.113.9')).status).toBe(429);
    expect((await via('203.0.113.10')).status).toBe(404);
  });

  it('counts the page and the transfer, not the style sheet, a 405, a 404 path or a foreign Origin', async () => {
    const harness = createHarness({ publicUrl: ORIGIN, limit: 1 });
    for (let i = 0; i < 3; i += 1) {
      expect((await harness.service.handle(buyerRequest('GET', '/buyer/buyer.css'))).status).toBe(200);
      expect((await harness.service.handle(buyerRequest('DELETE', `/buyer/${FORGED}`))).status).toBe(405);
      expect((await harness.service.handle(buyerRequest('GET', `/buyer/${FORGED}/other`))).status).toBe(404);
      const foreign = buyerRequest('POST', `/buyer/${FORGED}/transfer`, { headers: { origin: 'https://evil.test' } });
      expect((await harness.service.handle(foreign)).status).toBe(403);
    }
    const json_ = { 'content-type': 'application/json' };
    const transfer = (headers: Record<string, string>) =>
      harness.service.handle(
        buyerRequest('POST', `/buyer/${FORGED}/transfer`, { headers, body: toBytes({ from: 'boutique.fr' }) }),
      );
    expect((await transfer(json_)).status).toBe(404);
    const problem = await transfer(json_);
    expectRefused(problem, '60');
    expect(problem.headers['Content-Type']).toBe('application/problem+json');
    expect(json(problem)).toMatchObject({ status: 429, type: expect.stringContaining('rate-limited') });
    const form = await transfer({ 'content-type': 'application/x-www-form-urlencoded' });
    expectRefused(form, '60');
    expect(form.body).toContain('href="../buyer.css"');
    expect(form.body).toContain('Wait 1\u00a0minute, then open your link again.');
  });
});

/** A context like createService's, with `verifier` in place of the one it makes. */
function contextWith(verifier: Verifier, limit: number): ServiceContext {
  return {
    store: createMemoryStore(),
    rateLimiter: createMemoryRateLimiter({ limit }),
    clock: createTestClock(),
    signer: createNodeSigner(TEST_SEED),
    verifier,
    logger: createTestLogger(),
    random: () => new Uint8Array(25),
    settings: undefined,
    trust: compileTrustProxy(undefined),
    blockedUserAgents: DEFAULT_BLOCKED_USER_AGENTS,
    adminTokenHash: null,
    publicUrl: ORIGIN,
    buyerTransfersPer30Days: 3,
  };
}
