import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { problemResponse, rateLimitKey } from '@licence/service';
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
 * an IPv4-mapped IPv6 address as its IPv4, other IPv6 by its /64.
 */

/**
 * Refused connections answered at once; past that, a refused connection is closed without an
 * answer, so refusals hold a bounded number of descriptors (within DESCRIPTOR_RESERVE).
 */
export const REFUSAL_SLOTS = 64;

export interface ConnectionGuard {
  /** Connections handed to HTTP and still open. */
  readonly open: () => number;
  /** Open connections of one client address (its rate-limit key). */
  readonly openFrom: (address: string) => number;
}

/**
 * Takes over the server's 'connection' event: Node's HTTP parser is attached only to the
 * connections the caps admit. Call it once, right after createServer.
 */
export function guardConnections(server: Server, limits: ConnectionLimits, stats: ConnectionStats): ConnectionGuard {
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
    const key = rateLimitKey(socket.remoteAddress);
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
  return { open: counts.open, openFrom: (address) => counts.from(rateLimitKey(address)) };
}

/** The open connections, in all and per client address; `admit` takes a place or says which cap is full. */
function connectionCounts(limits: ConnectionLimits) {
  const perAddress = new Map<string, number>();
  let open = 0;
  return {
    open: (): number => open,
    from: (key: string): number => perAddress.get(key) ?? 0,
    admit: (key: string): RefusalEvent | undefined => {
      const fromAddress = perAddress.get(key) ?? 0;
      const perIp = limits.maxConnectionsPerIp;
      // Per address first: the client over its own cap is told so, even when the total is full too.
      if (perIp !== undefined && fromAddress >= perIp) return 'refusedPerAddress';
      if (open >= limits.maxConnections) return 'refusedTotal';
      open += 1;
      perAddress.set(key, fromAddress + 1);
      return undefined;
    },
    release: (key: string): void => {
      open -= 1;
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
