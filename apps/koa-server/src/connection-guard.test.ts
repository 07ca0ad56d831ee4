import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { readServiceConfig } from '@licence/service';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { guardConnections } from './connection-guard.js';
import type { ConnectionGuard, ConnectionKey } from './connection-guard.js';
import type { ConnectionLimits } from './connection-limits.js';
import { createConnectionStats } from './connection-stats.js';

/**
 * The key `licence serve` counts each connection under when TRUST_PROXY is the limits' CIDR list
 * (ServiceConfig's `clientAddress`, start-server.ts); without one, unset.
 */
function connectionKeyOf(limits: ConnectionLimits): ConnectionKey {
  const read = readServiceConfig({ TRUST_PROXY: (limits.trustedProxies ?? []).join(',') }, '/', {
    only: ['clientAddress'],
  });
  if (!read.ok) throw new Error('TRUST_PROXY refused');
  return read.value.clientAddress.connectionKey;
}

/** A bare HTTP server behind the guard on `host`, answering 200 to every request. */
async function guarded(host: string, limits: ConnectionLimits): Promise<{ server: Server; guard: ConnectionGuard }> {
  const server = createServer((_request, response) => response.end('ok'));
  const guard = guardConnections(server, limits, createConnectionStats(captureLogs().logger), connectionKeyOf(limits));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  servers.push(server);
  return { server, guard };
}

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function port(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return address.port;
}

/** Connects from `localAddress` and resolves with what the server wrote once it closes (or '' while open). */
function dial(
  server: Server,
  host: string,
  localAddress: string,
): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect({ port: port(server), host, localAddress });
    sockets.push(socket);
    let data = '';
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<string>((resolveClosed) => socket.on('close', () => resolveClosed(data)));
    socket.on('connect', () => resolve({ socket, closed }));
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('guardConnections', () => {
  it('counts an IPv4 client of a dual-stack socket (::ffff:127.0.0.3) as its IPv4 address', async (context) => {
    // A machine without IPv6 cannot listen on '::'; the rule itself is the service's rate-limit key (ServiceConfig's clientAddress).
    const dualStack = await guarded('::', { maxConnections: 10, maxConnectionsPerIp: 1 }).catch(() => undefined);
    if (dualStack === undefined) return context.skip();
    const { server, guard } = dualStack;
    await dial(server, '127.0.0.1', '127.0.0.3');
    await until(() => guard.openFrom('127.0.0.3') === 1);
    expect(guard.openFrom('::ffff:127.0.0.3')).toBe(1);
    const second = await dial(server, '127.0.0.1', '127.0.0.3');
    expect(await second.closed).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(guard.open()).toBe(1);
  });

  it('hands admitted connections to the HTTP parser, and frees their place when they close', async () => {
    const { server, guard } = await guarded('127.0.0.1', { maxConnections: 1, maxConnectionsPerIp: undefined });
    const first = await dial(server, '127.0.0.1', '127.0.0.4');
    first.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await first.closed).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
    await until(() => guard.open() === 0);
    const second = await dial(server, '127.0.0.1', '127.0.0.5');
    await until(() => guard.open() === 1);
    const third = await dial(server, '127.0.0.1', '127.0.0.6');
    expect(await third.closed).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    second.socket.destroy();
  });
});

describe('guardConnections with TRUST_PROXY as a CIDR list (docs/protocol.md#limits)', () => {
  const limits: ConnectionLimits = { maxConnections: 10, maxConnectionsPerIp: 1, trustedProxies: ['127.0.0.1/32'] };

  it('caps a peer outside the list, and never the proxy inside it', async () => {
    const { server, guard } = await guarded('127.0.0.1', limits);
    await dial(server, '127.0.0.1', '127.0.0.2');
    await until(() => guard.openFrom('127.0.0.2') === 1);
    const over = await dial(server, '127.0.0.1', '127.0.0.2');
    expect(await over.closed).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    for (let i = 0; i < 3; i += 1) await dial(server, '127.0.0.1', '127.0.0.1');
    await until(() => guard.open() === 4);
    // The proxy's connections count in all, not as one address's.
    expect(guard.openFrom('127.0.0.1')).toBe(0);
  });

  it('still caps the proxy with everyone else in all', async () => {
    const { server, guard } = await guarded('127.0.0.1', { ...limits, maxConnections: 2 });
    await dial(server, '127.0.0.1', '127.0.0.1');
    await dial(server, '127.0.0.1', '127.0.0.1');
    await until(() => guard.open() === 2);
    const over = await dial(server, '127.0.0.1', '127.0.0.1');
    expect(await over.closed).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
  });
});
