import { isRecord } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, admin, createHarness, type Harness, issue, json, toBytes, verdict } from '../../test/harness.js';
import { BUYER_PAGE_HEADERS } from './page.js';
import { createNodeSigner } from '../ports/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The buyer's routes through the whole service (docs/protocol.md#buyer-links): a link made by the
 * admin API, the key's page, and the transfer in JSON and as a form, on the real memory store.
 */

const ORIGIN = 'http://licences.test';
const KEY_PATTERN = /[0-9A-Z]{5}(?:-[0-9A-Z]{5}){4}/;

/** A service whose links start with ORIGIN, unless `overrides` says otherwise. */
function setup(overrides: Parameters<typeof createHarness>[0] = {}): Harness {
  return createHarness({ publicUrl: ORIGIN, ...overrides });
}

/** A key bound to `boutique.fr` (sites: 2 unless told), and a buyer link for it; the link's path. */
async function boundKey(harness: Harness, sites = 2): Promise<{ cle: string; path: string; url: string }> {
  const cle = await issue(harness.service, { sites });
  await verdict(harness.service, { cle, url: 'https://boutique.fr/' }, 'boutique.fr');
  const link = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, {}, 201);
  const url = String(link.url);
  return { cle, url, path: `/buyer/${url.split('/buyer/')[1] ?? ''}` };
}

interface BuyerInit {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly origin?: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
}

function buyerRequest(method: string, path: string, init: BuyerInit = {}): ServiceRequest {
  const headers: Record<string, string | undefined> = { host: 'licences.test', ...init.headers };
  if (init.contentType !== undefined) headers['content-type'] = init.contentType;
  headers.origin = 'origin' in init ? init.origin : ORIGIN;
  return { method, path, headers, body: toBytes(init.body), ip: '198.51.100.4' };
}

const transferPath = (path: string) => `${path}/transfer`;
const postJson = (harness: Harness, path: string, body: unknown, init: BuyerInit = {}) =>
  harness.service.handle(buyerRequest('POST', transferPath(path), { body, contentType: 'application/json', ...init }));
const postForm = (harness: Harness, path: string, form: Record<string, string>, init: BuyerInit = {}) =>
  harness.service.handle(
    buyerRequest('POST', transferPath(path), {
      body: new URLSearchParams(form).toString(),
      contentType: 'application/x-www-form-urlencoded',
      ...init,
    }),
  );

function expectBuyerHeaders(response: ServiceResponse): void {
  for (const [name, value] of Object.entries(BUYER_PAGE_HEADERS)) expect(response.headers[name]).toBe(value);
  expect(response.headers['Cache-Control']).toBe('no-store');
}

function problemOf(response: ServiceResponse): { type: unknown; status: unknown; detail: unknown } {
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  const body = json(response);
  return { type: body.type, status: body.status, detail: body.detail };
}

async function outcome(harness: Harness, cle: string, url: string): Promise<{ ok: unknown; motif: unknown }> {
  const host = new URL(url).hostname;
  const donnees = await verdict(harness.service, { cle, url }, host);
  return { ok: donnees.ok, motif: donnees.motif };
}

describe('POST /admin/keys/:cle/buyer-link (docs/protocol.md#buyer-links)', () => {
  it('answers 201 {url, expires}: the public URL, /buyer/ and the token; a day unless ttl says', async () => {
    const harness = setup({ publicUrl: 'https://licences.example.com/prod/' });
    const cle = await issue(harness.service, {});
    const link = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, undefined, 201);
    expect(Object.keys(link).sort()).toEqual(['expires', 'url']);
    expect(link.url).toMatch(/^https:\/\/licences\.example\.com\/prod\/buyer\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(link.expires).toBe('2026-11-23T10:14:00Z');
    const short = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, { ttl: 60 }, 201);
    expect(short.expires).toBe('2026-11-22T10:15:00Z');
    const long = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, { ttl: 2_592_000 }, 201);
    expect(long.expires).toBe('2026-12-22T10:14:00Z');
    // The log names the key by its hint; never the URL, which holds the token.
    expect(harness.logger.lines.some((line) => line.fields.action === 'key.buyer-link')).toBe(true);
    expect(harness.logger.text().includes(String(link.url).split('/buyer/')[1] ?? '-')).toBe(false);
  });

  it('refuses a ttl out of range or not a whole number with one exact message', async () => {
    const harness = setup();
    const cle = await issue(harness.service, {});
    for (const ttl of [59, 2_592_001, 1.5, '3600', -60]) {
      const refused = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, { ttl }, 400);
      expect(refused.detail).toBe('ttl: expected an integer from 60 to 2592000 (seconds)');
    }
  });

  it('is a 404 for an unknown key, and a 409 for a key no longer alive', async () => {
    const harness = setup();
    await admin(harness.service, 'POST', '/admin/keys/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE/buyer-link', {}, 404);
    const cle = await issue(harness.service, {});
    await admin(harness.service, 'POST', `/admin/keys/${cle}/revoke`, {}, 200);
    const refused = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, {}, 409);
    expect(refused.detail).toMatch(/^key [0-9A-Z]{4} is no longer alive \(revocation\)$/);
  });

  it('without a public URL, builds the link on the request: its Host, and X-Forwarded-Proto only under TRUST_PROXY', async () => {
    const ask = async (harness: Harness, headers: Record<string, string>) => {
      const cle = await issue(harness.service, {});
      const request = {
        method: 'POST',
        path: `/admin/keys/${cle}/buyer-link`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
        body: new Uint8Array(0),
        ip: '10.0.0.2',
      };
      return harness.service.handle(request);
    };
    const plain = createHarness();
    const fromHost = await ask(plain, { host: 'Shop.Example:8443', 'x-forwarded-proto': 'https' });
    expect(String(json(fromHost).url)).toMatch(/^http:\/\/shop\.example:8443\/buyer\//);
    const noHost = await ask(plain, {});
    expect(noHost.status).toBe(400);
    expect(problemOf(noHost).detail).toBe(
      'Host: expected a host name and port to build the link on; or set LICENCE_PUBLIC_URL',
    );
    expect((await ask(plain, { host: 'a.example/evil' })).status).toBe(400);
    const proxied = createHarness({ trustProxy: { cidrs: ['10.0.0.0/8'] } });
    const behindProxy = await ask(proxied, { host: 'shop.example', 'x-forwarded-proto': 'http, https' });
    expect(String(json(behindProxy).url)).toMatch(/^https:\/\/shop\.example\/buyer\//);
  });
});

describe('GET /buyer/:token and /buyer/buyer.css', () => {
  it('answers the key page: HTML in the asked language, strict headers, no-store; HEAD without a body', async () => {
    const harness = setup();
    const { path } = await boundKey(harness);
    const page = await harness.service.handle(buyerRequest('GET', path));
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers.Vary).toBe('Accept-Language');
    expectBuyerHeaders(page);
    expect(page.body).toContain('<html lang="en"');
    expect(page.body).toContain('boutique.fr');
    // The form posts next to the page: relative, so a path prefix in front of the service is kept.
    expect(page.body).toContain(`action="${path.slice('/buyer/'.length)}/transfer"`);
    const french = await harness.service.handle(
      buyerRequest('GET', path, { headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' } }),
    );
    expect(french.body).toContain('<html lang="fr"');
    const head = await harness.service.handle(buyerRequest('HEAD', path));
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves the stylesheet with the same headers; 405 with Allow for other methods', async () => {
    const harness = setup();
    const css = await harness.service.handle(buyerRequest('GET', '/buyer/buyer.css'));
    expect(css.status).toBe(200);
    expect(css.headers['Content-Type']).toBe('text/css; charset=utf-8');
    expect(css.body.length).toBeGreaterThan(100);
    expectBuyerHeaders(css);
    const { path } = await boundKey(harness);
    for (const [method, route, allow] of [
      ['POST', '/buyer/buyer.css', 'GET, HEAD'],
      ['POST', path, 'GET, HEAD'],
      ['DELETE', path, 'GET, HEAD'],
      ['GET', transferPath(path), 'POST'],
    ] as const) {
      const refused = await harness.service.handle(buyerRequest(method, route));
      expect(refused.status).toBe(405);
      expect(refused.headers.Allow).toBe(allow);
      expectBuyerHeaders(refused);
    }
    for (const route of ['/buyer', '/buyer/', `${path}/other`, `${transferPath(path)}/x`]) {
      expect((await harness.service.handle(buyerRequest('GET', route))).status).toBe(404);
    }
  });

  it('answers 404 for a forged or foreign token, 410 past its expiry or once its key ended', async () => {
    const harness = setup();
    const { cle, path } = await boundKey(harness);
    const token = path.slice('/buyer/'.length);
    const forged = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect((await harness.service.handle(buyerRequest('GET', `/buyer/${forged}`))).status).toBe(404);
    // The same store behind a service with another signing key: a rotated key ends every link.
    const rotated = setup({ store: harness.store, signer: createNodeSigner(new Uint8Array(32).fill(9)) });
    expect((await rotated.service.handle(buyerRequest('GET', path))).status).toBe(404);
    expect((await harness.service.handle(buyerRequest('GET', '/buyer/nope'))).status).toBe(404);

    await admin(harness.service, 'POST', `/admin/keys/${cle}/regenerate`, {}, 201);
    const ended = await harness.service.handle(buyerRequest('GET', path));
    expect(ended.status).toBe(410);
    expectBuyerHeaders(ended);

    const other = await boundKey(harness);
    harness.clock.advance(86_400_000);
    expect((await harness.service.handle(buyerRequest('GET', other.path))).status).toBe(410);
  });

  it('is served with the admin API off: the link opens it', async () => {
    const harness = setup();
    const { path } = await boundKey(harness);
    // Another service on the same store and signing key, without LICENCE_ADMIN_TOKEN.
    const off = setup({ adminToken: '', store: harness.store });
    expect((await off.service.handle(buyerRequest('GET', path))).status).toBe(200);
    expect((await off.service.handle(buyerRequest('GET', '/admin/me'))).status).toBe(404);
  });
});

describe('POST /buyer/:token/transfer', () => {
  it('moves a site in JSON: 200 {cle}; the old key answers transfert, the new one ok on the new domain', async () => {
    const harness = setup();
    const { cle, path } = await boundKey(harness);
    const moved = await postJson(harness, path, { from: 'https://www.boutique.fr/shop', to: 'nouvelle.fr' });
    expect(moved.status).toBe(200);
    expectBuyerHeaders(moved);
    const fresh = json(moved).cle;
    expect(fresh).toMatch(KEY_PATTERN);
    expect(await outcome(harness, cle, 'https://nouvelle.fr/')).toEqual({ ok: false, motif: 'transfert' });
    expect(await outcome(harness, String(fresh), 'https://nouvelle.fr/')).toEqual({ ok: true, motif: '' });
    // The new key's allowance is the old one's: one slot left beside nouvelle.fr.
    const shown = await admin(harness.service, 'GET', `/admin/keys/${String(fresh)}`, undefined, 200);
    expect(shown).toMatchObject({ sites: 2, domains: [{ domain: 'nouvelle.fr' }] });
    // The link died with its key.
    expect((await harness.service.handle(buyerRequest('GET', path))).status).toBe(410);
  });

  it('sends key.transferred with the new key and initiatedBy "buyer"', async () => {
    const harness = setup();
    const hook = { url: 'https://shop.example/hooks', events: ['key.transferred'] };
    await admin(harness.service, 'POST', '/admin/webhooks', hook, 201);
    const { path } = await boundKey(harness);
    const moved = await postJson(harness, path, { from: 'boutique.fr' });
    const nowSeconds = Math.floor(harness.clock.now() / 1000);
    const claimed = await harness.store.claimWebhookDeliveries(nowSeconds, nowSeconds + 60, 10);
    const bodies = claimed.map((delivery) => JSON.parse(delivery.body) as unknown);
    expect(bodies).toEqual([
      {
        type: 'key.transferred',
        timestamp: expect.any(String),
        data: { hint: expect.any(String), cle: json(moved).cle, produit: 'mon-theme', initiatedBy: 'buyer' },
      },
    ]);
  });

  it('frees a site with a form: the done page shows the new key once; the old key keeps nothing', async () => {
    const harness = setup();
    const { cle, path } = await boundKey(harness);
    const done = await postForm(harness, path, { from: 'boutique.fr' });
    expect(done.status).toBe(200);
    expect(done.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expectBuyerHeaders(done);
    const fresh = KEY_PATTERN.exec(done.body)?.[0] ?? '';
    expect(fresh).not.toBe('');
    expect(fresh === cle).toBe(false);
    // One level below the page: its links go up one.
    expect(done.body).toContain('href="../buyer.css"');
    const shown = await admin(harness.service, 'GET', `/admin/keys/${fresh}`, undefined, 200);
    expect(shown.domains).toEqual([]);
  });

  it('refuses with the key page again: a domain not bound 409, a bad domain 400', async () => {
    const harness = setup();
    const { path } = await boundKey(harness, 1);
    const cases = [
      [{ from: 'autre.fr', to: 'x.fr' }, 409, 'not bound'],
      [{ from: 'autre.fr' }, 409, 'not bound'],
      [{ from: 'boutique.fr', to: 'localhost' }, 400, 'to:'],
      [{ from: 'boutique.fr', to: '' }, 400, 'to:'],
      [{ to: 'x.fr' }, 400, 'from: is required'],
    ] as const;
    for (const [form, status, detail] of cases) {
      const refused = await postForm(harness, path, form);
      expect(refused.status).toBe(status);
      expect(refused.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(refused.body).toContain(detail);
      expect(refused.body).toContain('action="transfer"');
      expect(refused.body).toContain('href="../buyer.css"');
    }
    // JSON: the same refusals as problems.
    expect(problemOf(await postJson(harness, path, { from: 'autre.fr' }))).toEqual({
      type: 'https://licence.dev/problems/conflict',
      status: 409,
      detail: expect.stringMatching(/^key [0-9A-Z]{4} is not bound to autre\.fr$/),
    });
    expect(problemOf(await postJson(harness, path, { from: 42 })).detail).toBe('from: expected a string');
    expect(problemOf(await postJson(harness, path, {})).detail).toBe('from: is required');
  });

  it('refuses a POST without the page origin: 403 page or problem, nothing changed', async () => {
    const harness = setup();
    const { cle, path } = await boundKey(harness);
    for (const origin of [
      undefined,
      'null',
      'https://evil.example',
      'http://licences.test:8080',
      'https://licences.test',
    ]) {
      const form = await postForm(harness, path, { from: 'boutique.fr' }, { origin });
      expect(form.status).toBe(403);
      expect(form.headers['Content-Type']).toBe('text/html; charset=utf-8');
      const asJson = await postJson(harness, path, { from: 'boutique.fr' }, { origin });
      expect(problemOf(asJson)).toMatchObject({ type: 'https://licence.dev/problems/forbidden', status: 403 });
    }
    expect(await outcome(harness, cle, 'https://boutique.fr/')).toEqual({ ok: true, motif: '' });
  });

  it('without a public URL, takes the origin of the request itself', async () => {
    const harness = createHarness();
    const cle = await issue(harness.service, { sites: 2 });
    const link = await harness.service.handle({
      method: 'POST',
      path: `/admin/keys/${cle}/buyer-link`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, host: 'licences.test' },
      body: new Uint8Array(0),
      ip: '127.0.0.1',
    });
    const path = `/buyer/${String(json(link).url).split('/buyer/')[1] ?? ''}`;
    expect((await postJson(harness, path, { from: 'x.fr' })).status).toBe(409);
    expect((await postJson(harness, path, { from: 'x.fr' }, { origin: 'https://licences.test' })).status).toBe(403);
  });

  it('refuses a body it cannot read: 413, 415, 400, as problems', async () => {
    const harness = setup();
    const { path } = await boundKey(harness);
    const tooLarge = await postJson(harness, path, `{"from":"${'a'.repeat(9000)}"}`);
    expect(problemOf(tooLarge).status).toBe(413);
    const text = await harness.service.handle(
      buyerRequest('POST', transferPath(path), { body: 'from=boutique.fr', contentType: 'text/plain' }),
    );
    expect(problemOf(text).detail).toBe('Content-Type must be application/json or application/x-www-form-urlencoded');
    expect(problemOf(await postJson(harness, path, '{"from":')).detail).toBe('body: not valid JSON');
    const gzip = await postJson(harness, path, { from: 'boutique.fr' }, { headers: { 'content-encoding': 'gzip' } });
    expect(problemOf(gzip).status).toBe(415);
  });

  it('allows 3 buyer transfers per lineage in 30 days, the 4th a 429 with Retry-After; the operator does not count', async () => {
    const harness = setup();
    let { path } = await boundKey(harness);
    const linkOf = async (cle: string) => {
      const link = await admin(harness.service, 'POST', `/admin/keys/${cle}/buyer-link`, {}, 201);
      return `/buyer/${String(link.url).split('/buyer/')[1] ?? ''}`;
    };
    let domain = 'boutique.fr';
    let cle = '';
    for (let n = 1; n <= 3; n += 1) {
      const moved = await postJson(harness, path, { from: domain, to: `site${n}.fr` });
      expect(moved.status).toBe(200);
      domain = `site${n}.fr`;
      cle = String(json(moved).cle);
      if (n === 2) {
        // Ten days later, the operator regenerates the key: same lineage, not a buyer's transfer.
        harness.clock.advance(10 * 86_400_000);
        cle = String((await admin(harness.service, 'POST', `/admin/keys/${cle}/regenerate`, {}, 201)).cle);
      }
      path = await linkOf(cle);
    }
    const page = await harness.service.handle(buyerRequest('GET', path));
    expect(page.status).toBe(200);
    const limited = await postJson(harness, path, { from: domain, to: 'site4.fr' });
    expect(problemOf(limited)).toMatchObject({ type: 'https://licence.dev/problems/rate-limited', status: 429 });
    // Two were made 10 days before the third, and count until 30 days after them included: one
    // is free again in 21 whole days.
    expect(limited.headers['Retry-After']).toBe(String(21 * 86_400));
    const limitPage = await postForm(harness, path, { from: domain, to: 'site4.fr' });
    expect(limitPage.status).toBe(429);
    expect(limitPage.headers['Content-Type']).toBe('text/html; charset=utf-8');
    // The link lives a day: a new one, 20 days and a second later.
    harness.clock.advance(20 * 86_400_000 + 1000);
    path = await linkOf(cle);
    expect((await postJson(harness, path, { from: domain, to: 'site4.fr' })).status).toBe(200);
  });

  it('answers the limit page at once when LICENCE_BUYER_TRANSFERS_PER_30_DAYS is 0, without Retry-After', async () => {
    const harness = setup({ buyerTransfersPer30Days: 0 });
    const { path } = await boundKey(harness);
    const refused = await postJson(harness, path, { from: 'boutique.fr' });
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toBeUndefined();
  });

  it('gives one new key for two posts at once (two tabs): the other finds the key ended, 410', async () => {
    const harness = setup();
    const { path } = await boundKey(harness);
    const answers = await Promise.all([
      postForm(harness, path, { from: 'boutique.fr', to: 'un.fr' }),
      postForm(harness, path, { from: 'boutique.fr', to: 'deux.fr' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
    const installations = await admin(
      harness.service,
      'GET',
      '/admin/products/mon-theme/installations',
      undefined,
      200,
    );
    const live = (installations.keys as { status: string }[]).filter((key) => key.status === 'active');
    expect(live).toHaveLength(1);
  });

  it('never writes the token, the link or a key into a log line', async () => {
    const harness = setup();
    const { cle, path, url } = await boundKey(harness);
    const token = path.slice('/buyer/'.length);
    await harness.service.handle(buyerRequest('GET', path));
    await postForm(harness, path, { from: 'autre.fr' });
    const moved = await postJson(harness, path, { from: 'boutique.fr', to: 'nouvelle.fr' });
    await harness.service.handle(buyerRequest('GET', path));
    const fresh = String(json(moved).cle);
    const text = harness.logger.text();
    const [payload = '', signature = ''] = token.split('.');
    for (const secret of [url, token, payload, signature, cle, fresh]) expect(text.includes(secret)).toBe(false);
    const transfer = harness.logger.lines.find((line) => line.fields.action === 'key.transfer');
    expect(isRecord(transfer?.fields) && transfer.fields.initiatedBy).toBe('buyer');
  });
});
