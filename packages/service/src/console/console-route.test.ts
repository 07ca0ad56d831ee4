import { describe, expect, it } from 'vitest';
import { adminRequest, createHarness, json } from '../../test/harness.js';
import { CONSOLE_HEADERS, isConsolePath } from './console-route.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ConsoleAssets, ServiceRequest } from '../http/index.js';

// docs/protocol.md#console: the page and its files, with their headers, while the admin API is on.

const INDEX = '<!doctype html>\n<html lang="en"><head><script src="console/console.js"></script></head></html>\n';
const ASSETS: ConsoleAssets = {
  files: {
    'index.html': { type: 'text/html; charset=utf-8', body: INDEX },
    'console.js': { type: 'text/javascript; charset=utf-8', body: 'console.log("hi");\n' },
    'console.css': { type: 'text/css; charset=utf-8', body: 'body{margin:0}\n' },
  },
};

const SECURITY = {
  'Content-Security-Policy':
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const get = (path: string, headers: Record<string, string> = {}, method = 'GET'): ServiceRequest => ({
  method,
  path,
  headers,
  body: new Uint8Array(0),
  ip: '127.0.0.1',
});

describe('the console (docs/protocol.md#console)', () => {
  it('serves the page at /console with every security header, in English by default', async () => {
    const { service } = createHarness({ console: ASSETS });
    const response = await service.handle(get('/console'));
    expect(response).toEqual({
      status: 200,
      headers: { ...SECURITY, 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept-Language' },
      body: INDEX,
    });
    expect(CONSOLE_HEADERS).toEqual(SECURITY);
  });

  it.each([
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    ['en-GB,fr;q=0.5', 'en'],
    ['de-DE,fr;q=0.3', 'fr'],
    ['de-DE', 'en'],
  ])('sets <html lang> from Accept-Language %j: %s', async (header, lang) => {
    const { service } = createHarness({ console: ASSETS });
    const response = await service.handle(get('/console', { 'accept-language': header }));
    expect(response.status).toBe(200);
    expect(response.body).toBe(INDEX.replace('<html lang="en"', `<html lang="${lang}"`));
    expect(response.headers.Vary).toBe('Accept-Language');
  });

  it('serves each file under /console/ with its type, and HEAD without a body', async () => {
    const { service } = createHarness({ console: ASSETS });
    for (const name of ['console.js', 'console.css']) {
      const file = ASSETS.files[name];
      expect(await service.handle(get(`/console/${name}`))).toEqual({
        status: 200,
        headers: { ...SECURITY, 'Content-Type': file?.type },
        body: file?.body,
      });
      const head = await service.handle(get(`/console/${name}`, {}, 'HEAD'));
      expect(head).toEqual({ status: 200, headers: { ...SECURITY, 'Content-Type': file?.type }, body: '' });
    }
    const page = await service.handle(get('/console', { 'accept-language': 'fr' }, 'HEAD'));
    expect(page.body).toBe('');
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
  });

  it('sends /console/ to ../console with a 308', async () => {
    const { service } = createHarness({ console: ASSETS });
    expect(await service.handle(get('/console/'))).toEqual({
      status: 308,
      headers: { ...SECURITY, Location: '../console' },
      body: '',
    });
  });

  it.each([
    '/console/nope.js',
    '/console/index.html',
    '/console/constructor',
    '/console/__proto__',
    '/console/console.js/x',
    '/console//console.js',
  ])('answers %s with a 404 problem carrying the headers', async (path) => {
    const { service } = createHarness({ console: ASSETS });
    const response = await service.handle(get(path));
    expect(response.status).toBe(404);
    expect(response.headers).toMatchObject({ ...SECURITY, 'Content-Type': 'application/problem+json' });
    expect(json(response)).toMatchObject({ type: `${PROBLEM_BASE}not-found`, detail: 'no such console file' });
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS', 'get'])('answers %s with 405 and Allow: GET, HEAD', async (method) => {
    const { service } = createHarness({ console: ASSETS });
    for (const path of ['/console', '/console/console.js', '/console/']) {
      const response = await service.handle(get(path, {}, method));
      expect(response.status).toBe(405);
      expect(response.headers).toMatchObject({ ...SECURITY, Allow: 'GET, HEAD' });
      expect(json(response).detail).toBe('use GET or HEAD on this path');
    }
  });

  it('is a plain 404 while the admin API is off, or without assets', async () => {
    for (const harness of [createHarness({ console: ASSETS, adminToken: '' }), createHarness()]) {
      const response = await harness.service.handle(get('/console'));
      expect(response.status).toBe(404);
      expect(json(response).detail).toBe('no such path');
      expect(response.headers['Content-Security-Policy']).toBeUndefined();
    }
  });

  it('needs no token: the page signs in by itself; the admin API still does', async () => {
    const { service } = createHarness({ console: ASSETS });
    expect((await service.handle(get('/console/console.js'))).status).toBe(200);
    expect((await service.handle(adminRequest('GET', '/admin/me', undefined, null))).status).toBe(401);
  });

  it('refuses at creation a console without its page, or a page whose language cannot be set', () => {
    const without = { files: { 'console.js': { type: 'text/javascript', body: '' } } };
    expect(() => createHarness({ console: without })).toThrow('console: files must hold index.html');
    const noLang = { files: { 'index.html': { type: 'text/html', body: '<html><body></body></html>' } } };
    expect(() => createHarness({ console: noLang })).toThrow('console: index.html must hold <html lang="en"');
  });

  it('isConsolePath', () => {
    for (const path of ['/console', '/console/', '/console/a.js']) expect(isConsolePath(path)).toBe(true);
    for (const path of ['/consoles', '/console.js', '/', '/admin/console']) expect(isConsolePath(path)).toBe(false);
  });
});
