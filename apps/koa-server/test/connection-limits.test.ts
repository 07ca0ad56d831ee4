import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEnvelope, parseAnswers, send } from '@licence/http-vector-runner';
import type { HttpAnswer } from '@licence/http-vector-runner';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * The connection caps and timeouts of docs/protocol.md#limits on a real server over loopback. Linux
 * routes all of 127.0.0.0/8 to the loopback interface, so a test picks its client address with
 * `localAddress`: 127.0.0.2 and up are other clients than the verdict calls from 127.0.0.1.
 */

/** A client connection and what the server did with it. */
interface Held {
  readonly socket: Socket;
  /** Everything the server wrote. */
  readonly received: () => Buffer;
  readonly closed: () => boolean;
  readonly whenClosed: Promise<void>;
}

/** Opens a connection from `localAddress` and resolves once it is connected; sends nothing unless told. */
function open(server: TestServer, localAddress: string, bytes?: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: server.port, host: server.host, localAddress });
    const chunks: Buffer[] = [];
    let closed = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server closes refused and silent connections: a reset is one of the ways that ends.
    socket.on('error', () => undefined);
    const whenClosed = new Promise<void>((resolveClosed) =>
      socket.on('close', () => {
        closed = true;
        resolveClosed();
      }),
    );
    socket.once('error', reject);
    socket.on('connect', () => {
      socket.off('error', reject);
      if (bytes !== undefined) socket.write(bytes);
      resolve({ socket, received: () => Buffer.concat(chunks), closed: () => closed, whenClosed });
    });
  });
}

function openMany(server: TestServer, localAddress: string, count: number): Promise<Held[]> {
  return Promise.all(Array.from({ length: count }, () => open(server, localAddress)));
}

/** Waits until `condition` holds (the server's side of a connection settles a moment after the client's). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still not true after 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The one answer of a connection the server closed. */
function onlyAnswer(held: Held): HttpAnswer {
  const answers = parseAnswers(held.received());
  expect(answers).toHaveLength(1);
  const [answer] = answers;
  if (answer === undefined) throw new Error('no answer');
  return answer;
}

function expectProblem(answer: HttpAnswer, status: number, slug: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(answer.text)).toMatchObject({ type: `https://licence.dev/problems/${slug}`, status });
}

const VERDICT_BODY = '{"cle":"AAAAA","url":"exemple.fr"}';

/** A verdict from 127.0.0.1, timed from send to the last byte. */
async function timedVerdict(server: TestServer): Promise<{ answer: HttpAnswer; ms: number }> {
  const started = performance.now();
  const answer = await send(server.url, {
    method: 'POST',
    path: '/api/licence',
    headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json' },
    body: VERDICT_BODY,
  });
  return { answer, ms: performance.now() - started };
}

async function closeAll(held: readonly Held[]): Promise<void> {
  for (const connection of held) connection.socket.destroy();
  await Promise.all(held.map((connection) => connection.whenClosed));
}

const entries = (server: TestServer) => server.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const faults = (server: TestServer) =>
  entries(server).filter((entry) => typeof entry.level === 'number' && entry.level >= 40);

describe('one address holding 1,000 idle connections (docs/protocol.md#limits)', () => {
  it.each([
    ['the default cap per address (100 held, 900 refused)', 100],
    ['a cap of 2,000 per address (all 1,000 held)', 2000],
  ])('does not delay a verdict from another address: %s', async (_name, perIp) => {
    const server = await startTestServer({ limits: { maxConnectionsPerIp: perIp } });
    try {
      const held = await openMany(server, '127.0.0.2', 1000);
      const kept = Math.min(perIp, 1000);
      await until(
        () => server.guard.openFrom('127.0.0.2') === kept && held.filter((c) => c.closed()).length === 1000 - kept,
        `${kept} connections held, the others closed`,
      );
      const { answer, ms } = await timedVerdict(server);
      expect(answer.status).toBe(200);
      expect(checkEnvelope(JSON.parse(answer.text), { json: { url: 'exemple.fr' } }, server.publicKey)).toEqual([]);
      expect(ms).toBeLessThan(1000);
      // Still held after the verdict: the server did not have to drop them to answer.
      expect(held.filter((c) => !c.closed())).toHaveLength(kept);
      await closeAll(held);
      await until(() => server.guard.open() === 0, 'every connection closed');
      expect(faults(server)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('caps per address and in all', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('the 101st connection from one address gets a 429 problem and is closed; others still get in; a closed one frees its place', async () => {
    const held = await openMany(server, '127.0.0.4', 100);
    await until(() => server.guard.openFrom('127.0.0.4') === 100, '100 connections held');
    const extra = await open(server, '127.0.0.4');
    await extra.whenClosed;
    const answer = onlyAnswer(extra);
    expectProblem(answer, 429, 'rate-limited');
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.text).detail).toBe(
      'too many connections from this address at once (at most 100); close some and retry',
    );

    // Another address is not concerned.
    const other = await open(server, '127.0.0.5');
    await until(() => server.guard.openFrom('127.0.0.5') === 1, 'the other address admitted');
    expect((await timedVerdict(server)).answer.status).toBe(200);

    // One closes: the next one from that address is served.
    await closeAll(held.slice(0, 1));
    await until(() => server.guard.openFrom('127.0.0.4') === 99, 'one place free');
    const next = await open(server, '127.0.0.4', 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await next.whenClosed;
    expect(onlyAnswer(next).status).toBe(200);
    await closeAll([...held, other]);
    await until(() => server.guard.open() === 0, 'every connection closed');
  });

  it('with TRUST_PROXY a hop count there is no cap per address: every peer is taken for a proxy', async () => {
    const proxied = await startTestServer({ trustProxy: { hops: 1 } });
    try {
      const held = await openMany(proxied, '127.0.0.6', 150);
      await until(() => proxied.guard.openFrom('127.0.0.6') === 150, '150 connections held');
      expect(held.filter((c) => c.closed())).toEqual([]);
      await closeAll(held);
    } finally {
      await proxied.close();
    }
  });

  it('with TRUST_PROXY a CIDR list, a peer outside it keeps the cap per address; the proxy inside it has none', async () => {
    // docs/protocol.md#limits: TRUST_PROXY=127.0.0.1/32, so 127.0.0.1 is the proxy and 127.0.0.2 a
    // client that reached the server directly (it held 255 connections before the cap applied to it).
    const proxied = await startTestServer({ trustProxy: { cidrs: ['127.0.0.1/32'] } });
    try {
      const direct = await openMany(proxied, '127.0.0.2', 100);
      await until(() => proxied.guard.openFrom('127.0.0.2') === 100, '100 connections from 127.0.0.2 held');
      const extra = await open(proxied, '127.0.0.2');
      await extra.whenClosed;
      expectProblem(onlyAnswer(extra), 429, 'rate-limited');

      const viaProxy = await openMany(proxied, '127.0.0.1', 150);
      await until(() => proxied.guard.open() === 250, '150 connections from the proxy held beside them');
      expect(viaProxy.filter((c) => c.closed())).toEqual([]);
      // The proxy still gets a verdict through, from its own address, with all of them open.
      expect((await timedVerdict(proxied)).answer.status).toBe(200);
      await closeAll([...direct, ...viaProxy]);
    } finally {
      await proxied.close();
    }
  });

  it('past the total cap a connection gets a 503 problem, and a request it sends never reaches the app', async () => {
    const small = await startTestServer({ limits: { maxConnections: 3 } });
    try {
      const held = await Promise.all([open(small, '127.0.0.7'), open(small, '127.0.0.8'), open(small, '127.0.0.9')]);
      await until(() => small.guard.open() === 3, '3 connections held');
      const received = () => entries(small).filter((entry) => entry.msg === 'request received').length;
      const before = received();
      const request = `POST /api/licence HTTP/1.1\r\nHost: x\r\nUser-Agent: ${PRODUCT_UA}\r\nContent-Type: application/json\r\nContent-Length: ${VERDICT_BODY.length}\r\n\r\n${VERDICT_BODY}`;
      const refused = await open(small, '127.0.0.10', request);
      await refused.whenClosed;
      const answer = onlyAnswer(refused);
      expectProblem(answer, 503, 'service-unavailable');
      expect(answer.headers['retry-after']).toBe('1');
      expect(received()).toBe(before);
      await closeAll(held);
      expect(faults(small)).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('silent connections (docs/protocol.md#limits: headers within 10 s)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The production values are 10 s, 15 s and a check every second (server.test.ts); shorter here.
    server = await startTestServer({ timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['a connection that sends nothing', undefined],
    ['a request whose headers never end', 'POST /api/licence HTTP/1.1\r\nHost: x\r\n'],
  ])('%s is answered 408 and closed by the server', async (_name, bytes) => {
    const silent = await open(server, '127.0.0.11', bytes);
    await silent.whenClosed;
    expectProblem(onlyAnswer(silent), 408, 'invalid-request');
  });

  it('a body that stops coming is answered 408 and closed, without an error line', async () => {
    const stalled = await open(
      server,
      '127.0.0.12',
      `POST /api/licence HTTP/1.1\r\nHost: x\r\nUser-Agent: ${PRODUCT_UA}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cle"`,
    );
    await stalled.whenClosed;
    expectProblem(onlyAnswer(stalled), 408, 'invalid-request');
    await until(() => server.guard.open() === 0, 'the connection forgotten');
    expect(faults(server)).toEqual([]);
  });

  it('counts them in the connection stats line as timed out, not as clients that left', async () => {
    await server.close();
    expect(entries(server).filter((entry) => entry.msg === 'connection stats')).toEqual([
      expect.objectContaining({ level: 30, timedOut: 3, clientAborts: 0, refusedPerAddress: 0, refusedTotal: 0 }),
    ]);
  });
});

describe('clients that go away (docs/protocol.md#errors: not a fault)', () => {
  it('a reset mid-body or right after the request logs nothing at warn or above, and is counted', async () => {
    const server = await startTestServer();
    const head = `POST /api/licence HTTP/1.1\r\nHost: x\r\nUser-Agent: ${PRODUCT_UA}\r\nContent-Type: application/json\r\nContent-Length: ${VERDICT_BODY.length}\r\n\r\n`;
    const received = () => entries(server).filter((entry) => entry.msg === 'request received').length;
    const midBody = await open(server, '127.0.0.13', head + VERDICT_BODY.slice(0, 5));
    await until(() => received() === 1, 'the request read');
    midBody.socket.resetAndDestroy();
    const afterRequest = await open(server, '127.0.0.14', head + VERDICT_BODY);
    afterRequest.socket.resetAndDestroy();
    await until(() => server.guard.open() === 0, 'both connections gone');
    await server.close();
    expect(faults(server)).toEqual([]);
    const stats = entries(server).filter((entry) => entry.msg === 'connection stats');
    expect(stats).toHaveLength(1);
    expect(stats[0]?.clientAborts).toBeGreaterThanOrEqual(1);
    // Counts only: no address in the line (docs/protocol.md#privacy).
    expect(JSON.stringify(stats[0])).not.toContain('127.0.0.');
  });
});
