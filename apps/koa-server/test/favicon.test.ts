import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { send } from '@licence/http-vector-runner';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceMiddleware } from '../src/licence-middleware.js';
import { captureLogs } from './capture-logs.js';
import { startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * `/favicon.ico` over real HTTP (docs/protocol.md#favicon): the Koa server answers it with the
 * service's SVG icon, admin API on or off, so a browser that opens `/` or a buyer page logs no 404
 * for it; `/` itself stays the JSON 404 of an unknown path. Mounted in a bigger Koa app, the
 * service leaves the path to that app's own icon.
 */

let server: TestServer;
let withoutAdmin: TestServer;

beforeAll(async () => {
  [server, withoutAdmin] = await Promise.all([startTestServer(), startTestServer({ adminToken: null })]);
});

afterAll(async () => {
  await Promise.all([server?.close(), withoutAdmin?.close()]);
});

describe('GET /favicon.ico on the Koa server', () => {
  it('is the SVG icon, cacheable for a day, nosniff, admin API on or off, logged under its own route', async () => {
    for (const target of [server, withoutAdmin]) {
      const answer = await send(target.url, { method: 'GET', path: '/favicon.ico' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('public, max-age=86400');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'");
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
      expect(answer.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s);
    }
    const logged = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.some((line) => line.route === '/favicon.ico' && line.status === 200)).toBe(true);
  });

  it('answers HEAD with the headers and no body, and another method with a 405 naming GET and HEAD', async () => {
    const head = await send(server.url, { method: 'HEAD', path: '/favicon.ico' });
    expect([head.status, head.headers['content-type'], head.text]).toEqual([200, 'image/svg+xml; charset=utf-8', '']);
    const post = await send(server.url, { method: 'POST', path: '/favicon.ico' });
    expect([post.status, post.headers.allow, post.headers['content-type']]).toEqual([
      405,
      'GET, HEAD',
      'application/problem+json',
    ]);
  });

  it('leaves `/` the JSON 404 problem of an unknown path (an API has no home page)', async () => {
    const root = await send(server.url, { method: 'GET', path: '/' });
    expect(root.status).toBe(404);
    expect(root.headers['content-type']).toBe('application/problem+json');
    expect((JSON.parse(root.text) as { status: number }).status).toBe(404);
  });
});

describe('the licence middleware in a bigger Koa app', () => {
  let host: Server | undefined;

  afterAll(async () => {
    await new Promise<void>((resolve) => (host === undefined ? resolve() : host.close(() => resolve())));
  });

  it('leaves /favicon.ico to the app, whose site icon it is, and still answers its own paths', async () => {
    const app = new Koa();
    app.use(licenceMiddleware(server.service, { logger: captureLogs().logger }));
    app.use((ctx) => {
      if (ctx.path !== '/favicon.ico') return;
      ctx.type = 'image/x-icon';
      ctx.body = 'the shop icon';
    });
    host = createServer(app.callback());
    await new Promise<void>((resolve) => host?.listen(0, '127.0.0.1', resolve));
    const address = host.address();
    const url = typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '';
    const icon = await send(url, { method: 'GET', path: '/favicon.ico' });
    expect([icon.status, icon.headers['content-type'], icon.text]).toEqual([200, 'image/x-icon', 'the shop icon']);
    expect((await send(url, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });
});
