import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startFakeService } from '../test/fake-service.js';
import type { FakeService } from '../test/fake-service.js';
import { callService, MAX_RESPONSE_BYTES } from './call-service.js';
import type { ServiceCall } from './call-service.js';

let fake: FakeService;
beforeAll(async () => {
  fake = await startFakeService();
});
afterAll(async () => {
  await fake.close();
});

const BODY = JSON.stringify({
  cle: 'ABCDEFGHJKMNPQRSTVWXYZ012',
  url: 'exemple.fr',
  produit: 'mon-theme',
  nonce: 'abcdefghijklmnopqrstuv',
});
const call = (overrides: Partial<ServiceCall> = {}): ServiceCall => ({
  fetch: (input, init) => fetch(input, init),
  endpoint: `${fake.url}/api/licence`,
  userAgent: 'mon-theme (@licence/client 0.1.0)',
  timeoutMs: 2000,
  body: BODY,
  ...overrides,
});

describe('callService over loopback', () => {
  it('POSTs the JSON body with a JSON content type and the product User-Agent', async () => {
    fake.answer({ status: 200, body: '{"donnees":{},"signature":"x"}' });
    const before = fake.requests.length;
    const outcome = await callService(call());
    expect(outcome).toEqual({ type: 'response', status: 200, body: { donnees: {}, signature: 'x' }, retryAfter: null });
    const received = fake.requests[before];
    expect(received).toMatchObject({ method: 'POST', path: '/api/licence', body: BODY });
    expect(received?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'mon-theme (@licence/client 0.1.0)',
      accept: 'application/json',
    });
  });

  it('hands any status to core with its Retry-After, and a body that is not JSON as null', async () => {
    fake.answer({ status: 429, body: '{"type":"about:blank","status":429}', headers: { 'retry-after': '120' } });
    expect(await callService(call())).toMatchObject({ type: 'response', status: 429, retryAfter: '120' });
    fake.answer({ status: 200, body: '<html>proxy login</html>' });
    expect(await callService(call())).toMatchObject({ type: 'response', status: 200, body: null });
    fake.answer({ status: 204 });
    expect(await callService(call())).toMatchObject({ type: 'response', status: 204, body: null });
  });

  it('does not read an answer longer than 64 KiB, declared or streamed', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(MAX_RESPONSE_BYTES) });
    fake.answer({ status: 200, body: big });
    expect(await callService(call())).toMatchObject({ type: 'response', status: 200, body: null });
    fake.answer({ status: 200, body: big, headers: { 'transfer-encoding': 'chunked' } });
    expect(await callService(call())).toMatchObject({ type: 'response', status: 200, body: null });
  });

  it('is a network failure when nothing listens', async () => {
    expect(await callService(call({ endpoint: `${await closedPortUrl()}/api/licence` }))).toEqual({
      type: 'failure',
      reason: 'network',
    });
  });

  it('is a timeout when the service never answers, and closes the connection', async () => {
    fake.answer('hang');
    const abandoned = fake.abandoned();
    // Long enough for the request to reach the fake on a busy machine: the fake counts only what arrived.
    expect(await callService(call({ timeoutMs: 1000 }))).toEqual({ type: 'failure', reason: 'timeout' });
    await expect.poll(() => fake.abandoned(), { timeout: 10_000 }).toBe(abandoned + 1);
  });

  it('is a timeout when the service sends its headers and then stalls (the body counts too)', async () => {
    const stalling: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"donnees":');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', () => resolve()));
    try {
      const address = stalling.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      expect(
        await callService(call({ endpoint: `http://127.0.0.1:${address.port}/api/licence`, timeoutMs: 150 })),
      ).toEqual({
        type: 'failure',
        reason: 'timeout',
      });
    } finally {
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
    }
  });

  it('turns an injected fetch that throws or answers nonsense into a network failure', async () => {
    const throwing = () => {
      throw new TypeError('fetch failed');
    };
    expect(await callService(call({ fetch: throwing }))).toEqual({ type: 'failure', reason: 'network' });
    const opaque = async () => ({ status: 0, headers: new Headers(), body: null }) as unknown as Response;
    expect(await callService(call({ fetch: opaque }))).toEqual({ type: 'failure', reason: 'network' });
    const notAResponse = async () => ({}) as Response;
    expect(await callService(call({ fetch: notAResponse }))).toEqual({ type: 'failure', reason: 'network' });
  });
});
