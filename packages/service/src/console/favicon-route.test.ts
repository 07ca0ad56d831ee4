import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../test/harness.js';
import { BUYER_PAGE_HEADERS, renderBuyerPage } from '../buyer/index.js';
import type { BuyerEndView } from '../buyer/index.js';
import { FAVICON_SVG } from './favicon-route.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ServiceRequest } from '../http/index.js';

// docs/protocol.md#favicon: the icon a browser asks of every page of the service, `/` included.

const request = (method: string, path = '/favicon.ico'): ServiceRequest => ({
  method,
  path,
  headers: {},
  body: new Uint8Array(0),
  ip: '203.0.113.7',
});

/** The console's icon: the drawing the service's icon must keep (favicon-route.ts says why it is a copy). */
const CONSOLE_ICON = readFileSync(new URL('../../../console/src/icon.svg', import.meta.url), 'utf8');
const withoutTitle = (svg: string): string => svg.replace(/<title>[^<]*<\/title>/, '').trim();

describe('/favicon.ico (docs/protocol.md#favicon)', () => {
  it('answers GET with the SVG icon, cacheable for a day, nosniff, under a policy that runs nothing', async () => {
    const { service } = createHarness();
    const answer = await service.handle(request('GET'));
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
    });
    expect(answer.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(answer.body).toBe(FAVICON_SVG);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const { service } = createHarness();
    const get = await service.handle(request('GET'));
    const head = await service.handle(request('HEAD'));
    expect([head.status, head.body]).toEqual([200, '']);
    expect(head.headers).toEqual(get.headers);
  });

  it('is served with the admin API off, as the buyer pages that link it are', async () => {
    const { service } = createHarness({ adminToken: '' });
    expect((await service.handle(request('GET'))).status).toBe(200);
  });

  it('refuses another method with a 405 problem naming GET and HEAD', async () => {
    const { service } = createHarness();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'get']) {
      const answer = await service.handle(request(method));
      expect(answer.status).toBe(405);
      expect(answer.headers.Allow).toBe('GET, HEAD');
      expect(answer.headers['Cache-Control']).toBe('no-store');
      expect(JSON.parse(answer.body)).toMatchObject({ type: `${PROBLEM_BASE}method-not-allowed`, status: 405 });
    }
  });

  it('is matched exactly: `/` and other spellings stay the JSON 404 of an unknown path', async () => {
    const { service } = createHarness();
    for (const path of ['/', '/favicon.ico/', '/FAVICON.ICO', '/favicon.svg', '/console/favicon.ico']) {
      const answer = await service.handle(request('GET', path));
      expect([path, answer.status, answer.headers['Content-Type']]).toEqual([path, 404, 'application/problem+json']);
    }
  });

  it('draws what the console’s icon draws', () => {
    expect(CONSOLE_ICON.startsWith('<svg')).toBe(true);
    expect(withoutTitle(FAVICON_SVG)).toBe(withoutTitle(CONSOLE_ICON));
  });
});

describe('the buyer pages link the icon (docs/protocol.md#favicon)', () => {
  const view: BuyerEndView = { kind: 'end', reason: 'invalid', authorName: 'Atelier Dupont' };
  /** `href` resolved against the page's address, as a browser does. */
  const resolved = (page: string, at: string): string => {
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page)?.[1] ?? '';
    return new URL(href, at).pathname;
  };

  it('by a relative link that reaches /favicon.ico from both depths, behind a path prefix too', () => {
    const page = renderBuyerPage({ ...view, place: 'page' }, 'en');
    const transfer = renderBuyerPage({ ...view, place: 'transfer' }, 'fr');
    expect(resolved(page, 'https://licences.exemple.fr/buyer/tok.sig')).toBe('/favicon.ico');
    expect(resolved(transfer, 'https://licences.exemple.fr/buyer/tok.sig/transfer')).toBe('/favicon.ico');
    expect(resolved(page, 'https://exemple.fr/prod/buyer/tok.sig')).toBe('/prod/favicon.ico');
    expect(resolved(transfer, 'https://exemple.fr/prod/buyer/tok.sig/transfer')).toBe('/prod/favicon.ico');
  });

  it('which the pages’ policy lets load: a same-origin image', () => {
    const policy = BUYER_PAGE_HEADERS['Content-Security-Policy'] ?? '';
    expect(policy.split('; ')).toContain("img-src 'self'");
  });
});
