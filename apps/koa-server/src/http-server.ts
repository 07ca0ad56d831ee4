import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Logger, Service } from '@licence/service';
import { answerClientError, answerConnect } from './client-error.js';
import { guardConnections } from './connection-guard.js';
import type { ConnectionGuard, ConnectionKey } from './connection-guard.js';
import type { ConnectionLimits } from './connection-limits.js';
import { createConnectionStats } from './connection-stats.js';
import type { ConnectionStats } from './connection-stats.js';
import { createApp } from './create-app.js';

/**
 * The Node HTTP server of the licence service: the Koa app behind the connection caps, with the
 * timeouts of docs/protocol.md#limits, and a problem+json answer for everything Node would
 * otherwise answer itself (docs/protocol.md#errors). `startServer` and the tests' server both run
 * this one.
 */

/** How long a connection may take at each stage (docs/protocol.md#limits). */
export interface HttpTimeouts {
  /** From connecting (or the previous answer) to the end of the request's headers. */
  readonly headersMs: number;
  /** To the end of the whole request; a licence request is a few hundred bytes. */
  readonly requestMs: number;
  /** An idle keep-alive connection between two requests. */
  readonly keepAliveMs: number;
  /** How often Node looks for connections past the first two; a late one lives this much longer at most. */
  readonly checkIntervalMs: number;
}

/** Short enough that a silent connection frees its descriptor in seconds (Node: 60 s, 300 s, 5 s, 30 s). */
export const DEFAULT_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 15_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

export interface HttpServerOptions {
  readonly service: Service;
  readonly logger: Logger;
  readonly limits: ConnectionLimits;
  /** The key each connection counts under for the cap per address: ServiceConfig's `clientAddress.connectionKey`. */
  readonly connectionKey: ConnectionKey;
  /** Tests shorten them; default DEFAULT_TIMEOUTS. */
  readonly timeouts?: Partial<HttpTimeouts>;
  /** How often the `connection stats` line may be written; default once a minute. */
  readonly statsIntervalMs?: number;
}

export interface LicenceHttpServer {
  /** Not listening yet. */
  readonly server: Server;
  readonly guard: ConnectionGuard;
  readonly stats: ConnectionStats;
}

export function createHttpServer(options: HttpServerOptions): LicenceHttpServer {
  const { logger } = options;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const stats = createConnectionStats(logger, options.statsIntervalMs);
  const app = createApp({ service: options.service, logger, onClientAbort: (socket) => stats.clientAborted(socket) });
  const handle = app.callback();
  const server = createServer(
    {
      // Node requires headersTimeout <= requestTimeout.
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node's own 400 for a missing Host is an empty chunked reply: the app answers it instead.
      requireHostHeader: false,
    },
    handle,
  );
  // An Expect other than 100-continue: Node's own 417 is empty; the app's boundary answers it.
  server.on('checkExpectation', handle);
  server.on('clientError', (error: Error & { code?: string }, socket) =>
    answerClientError(error, socket, logger, stats),
  );
  // Without this listener Node closes a CONNECT's connection without a word.
  server.on('connect', (_request, socket) => answerConnect(socket));
  // No 'upgrade' listener on purpose: Node then serves a request with `Upgrade` (a WebSocket
  // handshake, h2c) as an ordinary request, and the service answers it.
  const guard = guardConnections(server, options.limits, stats, options.connectionKey);
  return { server, guard, stats };
}
