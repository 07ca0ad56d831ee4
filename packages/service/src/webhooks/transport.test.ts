import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, type Receiver, startReceiver } from '../../test/webhook-deliver-kit.js';
import { type ResolveAll, safeLookup } from './destination.js';
import type { WebhookHeaders } from './signature.js';
import { postWebhook, WEBHOOK_USER_AGENT, type WebhookTransportOptions } from './transport.js';

const headers: WebhookHeaders = {
  'webhook-id': 'msg_test',
  'webhook-timestamp': '1700000000',
  'webhook-signature': 'v1,AAAA',
};
const body = '{"type":"key.revoked","data":{"produit":"thème"}}';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  cleanups.push(() => started.close());
  return started;
}

/** A raw TCP server, for answers no HTTP server would write. */
async function rawServer(onSocket: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

function options(allowPrivate: boolean, resolve?: ResolveAll, timeoutMs = 10_000): WebhookTransportOptions {
  return { timeoutMs, allowPrivate, lookup: safeLookup(allowPrivate, resolve) };
}

const failing =
  (code: string): ResolveAll =>
  (hostname, _options, callback) =>
    setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }), []));

const answering =
  (address: string): ResolveAll =>
  (_hostname, _options, callback) => {
    const answer: LookupAddress[] = [{ address, family: 4 }];
    setImmediate(() => callback(null, answer));
  };

describe('postWebhook (docs/protocol.md#webhooks)', () => {
  it('POSTs the body with its length, JSON type, user agent and the three webhook headers', async () => {
    const shop = await receiver(answerWith(202));
    expect(await postWebhook({ url: shop.url, headers, body }, options(true))).toEqual({ status: 202, error: null });
    const [request] = shop.received;
    expect(request?.body).toBe(body);
    expect(request?.headers).toMatchObject({
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': WEBHOOK_USER_AGENT,
    });
  });

  it.each([
    [404, 'HTTP 404'],
    [500, 'HTTP 500'],
    [303, 'redirect not followed (303)'],
    [199 + 1, null],
    [299, null],
  ])('judges status %i by itself', async (status, error) => {
    const shop = await receiver(answerWith(status));
    expect(await postWebhook({ url: shop.url, headers, body }, options(true))).toEqual({ status, error });
  });

  it('ends a receiver that keeps sending a byte at a time at the one deadline (not an idle timeout)', async () => {
    const port = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
      const timer = setInterval(() => socket.write('a'), 20);
      socket.on('close', () => clearInterval(timer));
    });
    const answer = await postWebhook(
      { url: `http://127.0.0.1:${port}/`, headers, body },
      options(true, undefined, 300),
    );
    expect(answer).toEqual({ status: null, error: 'timeout after 0.3 s' });
  });

  it('names a TLS failure by its code only', async () => {
    const shop = await receiver(answerWith(200)); // plain HTTP where TLS is expected
    const answer = await postWebhook({ url: `https://127.0.0.1:${shop.port}/`, headers, body }, options(true));
    expect(answer.status).toBeNull();
    expect(answer.error).toMatch(/^TLS error \([A-Z0-9_]+\)$|^network error \(EPROTO\)$/);
  });

  it('answers fixed texts for a host not found, never the resolver message', async () => {
    const url = 'https://shop.example/hook?token=query-secret';
    expect(await postWebhook({ url, headers, body }, options(false, failing('ENOTFOUND')))).toEqual({
      status: null,
      error: 'host not found',
    });
    expect(await postWebhook({ url, headers, body }, options(false, failing('ESOMETHING')))).toEqual({
      status: null,
      error: 'network error (ESOMETHING)',
    });
  });

  it('refuses a host name resolving to a private address, naming the range', async () => {
    const url = 'https://shop.example/hook';
    expect(await postWebhook({ url, headers, body }, options(false, answering('10.1.2.3')))).toEqual({
      status: null,
      error: 'private address refused (10.0.0.0/8, private (RFC 1918))',
    });
  });

  it.each([
    [
      'http://shop.example/hook?token=query-secret',
      'url refused: expected https (http only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    [
      'https://localhost/hook',
      'url refused: localhost is not a public address: loopback (RFC 6761) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    ['https://[::1]/hook', 'private address refused (::1/128, loopback (RFC 4291))'],
    [
      'https://[::ffff:169.254.169.254]/',
      'private address refused (169.254.0.0/16, link-local (RFC 3927): the cloud metadata service 169.254.169.254)',
    ],
    ['https://2130706433/', 'private address refused (127.0.0.0/8, loopback (RFC 1122))'],
    ['not a url', 'url refused: expected an absolute URL'],
  ])('refuses %s before any connection when private addresses are not allowed', async (url, error) => {
    const asked: string[] = [];
    const resolve: ResolveAll = (hostname, _options, callback) => {
      asked.push(hostname);
      callback(null, []);
    };
    expect(await postWebhook({ url, headers, body }, options(false, resolve))).toEqual({ status: null, error });
    expect(asked).toEqual([]);
  });
});
