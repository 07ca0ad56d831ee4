import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { problemResponse } from '@licence/service';
import type { ServiceResponse } from '@licence/service';
import { answerAndClose } from './client-error.js';
import type { ConnectionLimits } from './connection-limits.js';
import type { ConnectionStats, RefusalEvent } from './connection-stats.js';

/**
 * The caps of docs/protocol.md#limits on a running HTTP server: at most `maxConnectionsPerIp`
 * connections at once per client address and `maxConnections` in all. A connection over a cap is
 * answered with a problem (429 per address, 503 in all, both with Retry-After) and closed, before
 * any HTTP parser sees it: a request it sends never reaches the app.
 *
 * A client address is the socket's peer as the rate limit counts it (docs/protocol.md#rate-limit):
 * an IPv4-mapped IPv6 address as its IPv4, other IPv6 by its /64. A peer in TRUST_PROXY's CIDR list
 * (`trustedProxies`) is a proxy: its connections count in all, never against a cap per address.
 * Both rules are the service's, applied by `connectionKey` (ServiceConfig's `clientAddress`).
 */

/**
 * The key a connection from a socket's peer counts under for the cap per address, or none for a
 * trusted proxy (ServiceConfig's `clientAddress.connectionKey`, read from TRUST_PROXY).
 */
export type ConnectionKey = (peer: string) => string | undefined;

/**
 * Refused connections answered at once; past that, a refused connection is closed without an
 * answer, so refusals hold a bounded number of descriptors (within DESCRIPTOR_RESERVE).
 */
export const REFUSAL_SLOTS = 64;

export interface ConnectionGuard {
  /** Connections handed to HTTP and still open. */
  readonly open: () => number;
  /** Open connections of one client address (its rate-limit key); a trusted proxy's count in all only. */
  readonly openFrom: (address: string) => number;
}

/**
 * Takes over the server's 'connection' event: Node's HTTP parser is attached only to the
 * connections the caps admit. Call it once, right after createServer.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  stats: ConnectionStats,
  connectionKey: ConnectionKey,
): ConnectionGuard {
  // Node's own listener (the one that attaches the HTTP parser), called only for admitted sockets.
  const parsers = server.listeners('connection');
  server.removeAllListeners('connection');
  const counts = connectionCounts(limits);
  const refuse = refuser(limits, stats);
  server.on('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) {
      // No address: the client already left; nothing to serve.
      socket.destroy();
      return;
    }
    // A proxy's connections carry many clients: counted in all, never per address.
    const key = connectionKey(socket.remoteAddress);
    const refusal = counts.admit(key);
    if (refusal !== undefined) {
      refuse(socket, refusal);
      return;
    }
    socket.on('close', () => counts.release(key));
    for (const parser of parsers) Reflect.apply(parser, server, [socket]);
  });
  // Node's own backstop: past this many sockets it closes new ones at accept, before any of the above.
  server.maxConnections = limits.maxConnections + REFUSAL_SLOTS;
  return {
    open: counts.open,
    openFrom: (address) => {
      const key = connectionKey(address);
      return key === undefined ? 0 : counts.from(key);
    },
  };
}

/**
 * The open connections, in all and per client address; `admit` takes a place or says which cap is
 * full. A connection without a key (a trusted proxy's) counts in all only: a proxy's IPv6 /64 may
 * hold clients that reach the server directly, and they keep their own cap.
 */
function connectionCounts(limits: ConnectionLimits) {
  const perAddress = new Map<string, number>();
  let open = 0;
  return {
    open: (): number => open,
    from: (key: string): number => perAddress.get(key) ?? 0,
    admit: (key: string | undefined): RefusalEvent | undefined => {
      const fromAddress = key === undefined ? 0 : (perAddress.get(key) ?? 0);
      const perIp = limits.maxConnectionsPerIp;
      // Per address first: the client over its own cap is told so, even when the total is full too.
      if (perIp !== undefined && key !== undefined && fromAddress >= perIp) return 'refusedPerAddress';
      if (open >= limits.maxConnections) return 'refusedTotal';
      open += 1;
      if (key !== undefined) perAddress.set(key, fromAddress + 1);
      return undefined;
    },
    release: (key: string | undefined): void => {
      open -= 1;
      if (key === undefined) return;
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left === 0) perAddress.delete(key);
      else perAddress.set(key, left);
    },
  };
}

/** Answers a refused connection and closes it; past REFUSAL_SLOTS answers in progress, closes it at once. */
function refuser(limits: ConnectionLimits, stats: ConnectionStats): (socket: Socket, event: RefusalEvent) => void {
  let refusing = 0;
  return (socket, event) => {
    stats.count(event);
    if (refusing >= REFUSAL_SLOTS) {
      socket.destroy();
      return;
    }
    refusing += 1;
    socket.on('close', () => {
      refusing -= 1;
    });
    answerAndClose(socket, event === 'refusedPerAddress' ? tooManyFromAddress(limits) : tooManyInAll());
  };
}

function tooManyFromAddress(limits: ConnectionLimits): ServiceResponse {
  return problemResponse(
    'rate-limited',
    `too many connections from this address at once (at most ${limits.maxConnectionsPerIp ?? 0}); close some and retry`,
    { 'Retry-After': '1' },
  );
}

function tooManyInAll(): ServiceResponse {
  return problemResponse('service-unavailable', 'the server holds as many connections as it can; retry shortly', {
    'Retry-After': '1',
  });
}
