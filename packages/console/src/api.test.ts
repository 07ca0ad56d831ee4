import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApi, segment } from './api.js';
import { ApiError, asProblem, retryAfterSeconds } from './api-error.js';

/** What the loopback server saw of each request. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

// A made-up token of the author-token shape: the test checks where it travels.
const TOKEN = 'lat_TEST0nly-TokenXYZ_0123456789abcdefghijklmnopq';
const seen: Seen[] = [];
let server: Server;
let base: string;

/** Answers by path: enough of the admin API to see what the client sends and how it reads answers. */
function answer(url: string, res: import('node:http').ServerResponse): void {
  if (url.endsWith('/admin/me'))
    return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"role":"operator"}');
  if (url.includes('/tokens/')) return void res.writeHead(204).end();
  if (url.endsWith('/limited')) {
    res.writeHead(429, { 'Content-Type': 'application/problem+json', 'Retry-After': '49' });
    return void res.end(
      '{"type":"https://licence.dev/problems/rate-limited","title":"Too many requests","status":429,"detail":"retry in 49 s"}',
    );
  }
  if (url.endsWith('/proxy')) return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hello</html>');
  if (url.endsWith('/broken'))
    return void res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
  res.writeHead(404, { 'Content-Type': 'application/problem+json' });
  res.end('{"type":"https://licence.dev/problems/not-found","title":"Not found","status":404,"detail":"no such key"}');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req.url ?? '', res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stage/admin/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

describe('the admin API client, over real HTTP on loopback', () => {
  it('sends the token in Authorization: Bearer and nowhere else: not in the URL, not in a cookie', async () => {
    const api = createApi({ base, token: TOKEN });
    expect(await api.me()).toEqual({ role: 'operator' });
    await api.showKey('ABCDE-FGHIJ').catch(() => undefined);
    await api.revokeKey('ABCDE-FGHIJ', 'refund').catch(() => undefined);
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.url).not.toContain(TOKEN);
      expect(request.url).not.toContain('lat_');
      expect(request.headers.cookie).toBeUndefined();
      expect(request.body).not.toContain(TOKEN);
    }
  });

  it('resolves paths against the base, so a stage prefix is kept', async () => {
    await createApi({ base, token: TOKEN }).me();
    expect(seen[0]?.url).toBe('/stage/admin/me');
  });

  it('sends the key as one percent-encoded path segment', async () => {
    const api = createApi({ base, token: TOKEN });
    await api.showKey('ab/cd ef?x#y').catch(() => undefined);
    expect(seen[0]?.url).toBe('/stage/admin/keys/ab%2Fcd%20ef%3Fx%23y');
  });

  it('sends JSON bodies with their content type', async () => {
    const api = createApi({ base, token: TOKEN });
    await api.issueKey({ produit: 'p', kind: 'trial', expire: '2026-12-31T23:59:59Z' }).catch(() => undefined);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ produit: 'p', kind: 'trial', expire: '2026-12-31T23:59:59Z' });
  });

  it('reads a 204 as null', async () => {
    expect(await createApi({ base, token: TOKEN }).revokeAuthorToken('alice', 'tok1')).toBeNull();
    expect(seen[0]?.method).toBe('DELETE');
    expect(seen[0]?.url).toBe('/stage/admin/authors/alice/tokens/tok1');
  });

  it('the webhook calls go to their routes (docs/protocol.md#webhooks), ids percent-encoded', async () => {
    const api = createApi({ base, token: TOKEN });
    const calls = [
      api.listWebhooks(),
      api.addWebhook({ url: 'https://shop.example/h', events: ['key.issued'] }),
      api.removeWebhook('wh_a'),
      api.rotateWebhookSecret('wh_a'),
      api.webhookDeliveries('wh_a'),
      api.retryWebhookDelivery('wh_a', 'dlv/1'),
    ];
    await Promise.all(calls.map((call) => (call as Promise<unknown>).catch(() => undefined)));
    const routes = seen.map((request) => `${request.method} ${request.url}`).sort();
    expect(routes).toEqual(
      [
        'GET /stage/admin/webhooks',
        'POST /stage/admin/webhooks',
        'DELETE /stage/admin/webhooks/wh_a',
        'POST /stage/admin/webhooks/wh_a/secret',
        'GET /stage/admin/webhooks/wh_a/deliveries',
        'POST /stage/admin/webhooks/wh_a/deliveries/dlv%2F1/retry',
      ].sort(),
    );
    const added = seen.find((request) => request.method === 'POST' && request.url.endsWith('/webhooks'));
    expect(JSON.parse(added?.body ?? '')).toEqual({ url: 'https://shop.example/h', events: ['key.issued'] });
  });

  it('a product’s change is a PATCH of its JSON (docs/protocol.md#staging-hosts), the id percent-encoded', async () => {
    const api = createApi({ base, token: TOKEN });
    await api.updateProduct('a b', { staging: ['*.example.dev'] }).catch(() => undefined);
    expect(`${seen[0]?.method} ${seen[0]?.url}`).toBe('PATCH /stage/admin/products/a%20b');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ staging: ['*.example.dev'] });
  });

  it('a buyer link is asked for the key as its path segment, its ttl in the body', async () => {
    const api = createApi({ base, token: TOKEN });
    await api.buyerLink('ABCDE-FGHIJ', { ttl: 604_800 }).catch(() => undefined);
    expect(`${seen[0]?.method} ${seen[0]?.url}`).toBe('POST /stage/admin/keys/ABCDE-FGHIJ/buyer-link');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ ttl: 604_800 });
  });

  it('turns a problem into an ApiError with its status and problem; its message names neither key nor token', async () => {
    const error = await createApi({ base, token: TOKEN })
      .showKey('SECRET-KEY-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).problem?.detail).toBe('no such key');
    expect(String(error)).not.toMatch(/SECRET|lat_/);
  });

  it('reads Retry-After of a 429', async () => {
    const error = (await createApi({ base, token: TOKEN })
      .showKey('limited')
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.retryAfter, error.problem?.title]).toEqual([429, 49, 'Too many requests']);
  });

  it('an error page that is not a problem keeps its status, without a problem', async () => {
    const error = (await createApi({ base, token: TOKEN })
      .showKey('broken')
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.problem]).toEqual([502, null]);
  });

  it('a success that is not JSON (a proxy page) is a 502, not a crash', async () => {
    const error = (await createApi({ base, token: TOKEN })
      .showKey('proxy')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
  });

  it('no answer at all (nothing listens) is status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = (await createApi({ base: `http://127.0.0.1:${port}/admin/`, token: TOKEN })
      .me()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
  });
});

describe('segment', () => {
  it('percent-encodes, and refuses a segment of dots the URL parser would resolve away', () => {
    expect(segment('a b/c')).toBe('a%20b%2Fc');
    for (const dots of ['', '.', '..', '...']) expect(() => segment(dots)).toThrow(ApiError);
  });
});

describe('asProblem and retryAfterSeconds', () => {
  it('asProblem takes a body with the four fields and their types only', () => {
    const good = { type: 't', title: 'T', status: 409, detail: 'd', extra: 1 };
    expect(asProblem(good)).toEqual({ type: 't', title: 'T', status: 409, detail: 'd' });
    expect(asProblem({ ...good, status: '409' })).toBeNull();
    expect(asProblem({ type: 't', title: 'T', status: 409 })).toBeNull();
    expect(asProblem(null)).toBeNull();
    expect(asProblem('{"a":1}')).toBeNull();
  });

  it('retryAfterSeconds reads delay-seconds only', () => {
    expect(retryAfterSeconds('49')).toBe(49);
    expect(retryAfterSeconds(' 0 ')).toBe(0);
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBeNull();
    expect(retryAfterSeconds('-1')).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });
});
