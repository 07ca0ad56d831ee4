import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createMemoryRateLimiter, createNodeSigner, createService } from '@licence/service';
import { createMemoryStore } from '@licence/store-memory';
import type { Service, ServiceRequest } from '@licence/service';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { createApp } from './create-app.js';
import { licenceMiddleware } from './licence-middleware.js';

const ADMIN_TOKEN = 'adapter-test-token-0123456789-abcdefgh';
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The real service on an in-memory store, with every request it receives recorded. */
function recordedService() {
  const seen: ServiceRequest[] = [];
  const { logger, lines } = captureLogs();
  const real = createService({
    store: createMemoryStore(),
    rateLimiter: createMemoryRateLimiter(),
    clock: { now: Date.now },
    signer: createNodeSigner(new Uint8Array(randomBytes(32))),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    adminToken: ADMIN_TOKEN,
  });
  const service: Service = {
    handle: (request) => {
      seen.push(request);
      return real.handle(request);
    },
    purge: () => real.purge(),
  };
  return { service, seen, logger, lines };
}

async function listen(app: Koa): Promise<string> {
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

describe('toServiceRequest through a real Koa server', () => {
  it('hands the service the method, the path without query, the raw query, lower-case headers, the socket address and the raw body', async () => {
    const { service, seen, logger } = recordedService();
    const url = await listen(createApp({ service, logger }));
    const headers = new Headers({ 'User-Agent': 'MonTheme/1.0', 'Content-Type': 'application/json', 'X-Test': 'a' });
    headers.append('X-Test', 'b');
    await fetch(`${url}/api/licence?x=1&q=a%20b%26c&x=2`, {
      method: 'POST',
      headers,
      body: '{"cle":"x","url":"exemple.fr"}',
    });
    const request = seen[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/licence');
    expect(request?.query).toBe('x=1&q=a%20b%26c&x=2');
    expect(request?.headers['user-agent']).toBe('MonTheme/1.0');
    expect(request?.headers['x-test']).toBe('a, b');
    expect(request?.ip).toBe('127.0.0.1');
    expect(new TextDecoder().decode(request?.body ?? new Uint8Array())).toBe('{"cle":"x","url":"exemple.fr"}');
    await fetch(`${url}/healthz`);
    await fetch(`${url}/healthz?`);
    expect(seen.slice(1).map((seenRequest) => seenRequest.query)).toEqual(['', '']);
  });

  it('stops reading a public body at 8 KiB + 1: the service gets null and answers 413, and the client reads it', async () => {
    const { service, seen, logger } = recordedService();
    const url = await listen(createApp({ service, logger }));
    const post = (body: string) =>
      fetch(`${url}/api/licence`, {
        method: 'POST',
        headers: { 'User-Agent': 'T/1', 'Content-Type': 'application/json' },
        body,
      });

    const base = JSON.stringify({ cle: 'x', url: 'exemple.fr', pad: '' }).length;
    const exact = await post(JSON.stringify({ cle: 'x', url: 'exemple.fr', pad: 'p'.repeat(8192 - base) }));
    expect(seen[0]?.body?.length).toBe(8192);
    expect(exact.status).toBe(200);

    const over = await post('x'.repeat(8193));
    expect(seen[1]?.body).toBeNull();
    expect(over.status).toBe(413);
    expect(over.headers.get('content-type')).toBe('application/problem+json');
    expect(over.headers.get('connection')).toBe('close');
    expect(((await over.json()) as { status: number }).status).toBe(413);

    // 1 MB: answered, not reset, and nothing past the cap is kept.
    const huge = await post('y'.repeat(1024 * 1024));
    expect(huge.status).toBe(413);
    expect(seen[2]?.body).toBeNull();
  });

  it('allows 64 KiB on the admin API, and not one byte more', async () => {
    const { service, seen, logger } = recordedService();
    const url = await listen(createApp({ service, logger }));
    const post = (size: number) =>
      fetch(`${url}/admin/products`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 'p', author: 'a', name: 'n', pad: '' }).replace('""', `"${'z'.repeat(size)}"`),
      });
    const base = JSON.stringify({ id: 'p', author: 'a', name: 'n', pad: '' }).length;
    const within = await post(65536 - base);
    expect(seen[0]?.body?.length).toBe(65536);
    expect(within.status).toBe(201);
    const over = await post(65537 - base);
    expect(seen[1]?.body).toBeNull();
    expect(over.status).toBe(413);
  });
});

describe('applyServiceResponse', () => {
  it('sends the service answer exactly: status, headers, body; no Content-Type Koa made up', async () => {
    const { service, logger } = recordedService();
    const url = await listen(createApp({ service, logger }));
    const preflight = await fetch(`${url}/api/licence`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('OPTIONS, POST');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('content-type')).toBeNull();
    expect(await preflight.text()).toBe('');

    const wrongMethod = await fetch(`${url}/api/license`, { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('OPTIONS, POST');
    expect(wrongMethod.headers.get('content-type')).toBe('application/problem+json');
    expect(wrongMethod.headers.get('cache-control')).toBe('no-store');

    const unknown = await fetch(`${url}/nowhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, title: 'Not found' });
  });
});

describe('faults', () => {
  it('a service that throws gives a problem+json 500 and an error log line, never HTML', async () => {
    const { logger, lines } = captureLogs();
    const broken: Service = {
      handle: () => Promise.reject(new Error('store exploded')),
      purge: () => Promise.resolve(0),
    };
    const url = await listen(createApp({ service: broken, logger }));
    const response = await fetch(`${url}/api/licence`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'https://licence.dev/problems/internal-error',
      title: 'Internal error',
      status: 500,
      detail: 'an internal error occurred',
    });
    expect(lines.some((line) => line.includes('store exploded') && line.includes('"level":50'))).toBe(true);
    // docs/protocol.md#request: every answer of the public endpoint, a fault's too, is readable
    // cross-origin; elsewhere no CORS header is added.
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const admin = await fetch(`${url}/admin/products`);
    expect(admin.status).toBe(500);
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('clients that go away (docs/protocol.md#errors: not a fault)', () => {
  it('a reset mid-body is a debug line and an onClientAbort call, never a line at warn or above', async () => {
    const { service, logger, lines } = recordedService();
    const aborted: Socket[] = [];
    const url = new URL(await listen(createApp({ service, logger, onClientAbort: (socket) => aborted.push(socket) })));
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(
      'POST /api/licence HTTP/1.1\r\nHost: x\r\nUser-Agent: MonTheme/1.0\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cle"',
    );
    const read = () => lines.some((line) => line.includes('"msg":"request received"'));
    while (!read()) await new Promise((resolve) => setTimeout(resolve, 5));
    socket.resetAndDestroy();
    while (aborted.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((entry) => entry.level >= 40)).toEqual([]);
    expect(entries.find((entry) => entry.msg === 'client aborted the request')?.level).toBe(20);
    expect(new Set(aborted).size).toBe(1);
  });
});

describe('request log lines', () => {
  it('one line per request with method, route, status and ms; never the path, a header or the body', async () => {
    const { service, logger, lines } = recordedService();
    const url = await listen(createApp({ service, logger }));
    const key = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
    await fetch(`${url}/admin/keys/${key}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    await fetch(`${url}/api/licence`, {
      method: 'POST',
      headers: { 'User-Agent': 'SecretAgent/1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ cle: key, url: 'exemple.fr' }),
    });
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request');
    expect(requests.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'GET', route: '/admin/keys/:cle', status: 404 },
      { method: 'POST', route: '/api/licence', status: 200 },
    ]);
    expect(typeof requests[0]?.ms).toBe('number');
    for (const line of lines) {
      expect(line).not.toContain('ABCDEFGHJK');
      expect(line).not.toContain('ABCDE-FGHJK');
      expect(line).not.toContain('SecretAgent');
      expect(line).not.toContain(ADMIN_TOKEN);
    }
  });
});

describe('licenceMiddleware in an existing Koa app', () => {
  it('answers the service paths and leaves the others to the app', async () => {
    const { service, logger } = recordedService();
    const app = new Koa();
    app.use(licenceMiddleware(service, { logger }));
    app.use((ctx) => {
      ctx.body = 'the shop';
    });
    const url = await listen(app);
    expect(await (await fetch(`${url}/`)).text()).toBe('the shop');
    expect(await (await fetch(`${url}/api/other`)).text()).toBe('the shop');
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    expect((await fetch(`${url}/api/licence`)).status).toBe(405);
  });
});
