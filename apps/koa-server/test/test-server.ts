import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleAssets } from '@licence/console';
import { decodeBase64 } from '@licence/core';
import { createMemoryRateLimiter, createNodeSigner, createService, readServiceConfig } from '@licence/service';
import type { Logger, RateLimiter, Service, ServiceOptions, Store } from '@licence/service';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import { createTestClock } from '@licence/http-vector-runner';
import type { TestClock } from '@licence/http-vector-runner';
import { loadSignatureVectors } from '@licence/vectors';
import { connectionLimits, DEFAULT_MAX_CONNECTIONS_PER_IP } from '../src/connection-limits.js';
import type { ConnectionLimits } from '../src/connection-limits.js';
import type { ConnectionGuard, ConnectionKey } from '../src/connection-guard.js';
import { createHttpServer } from '../src/http-server.js';
import type { HttpTimeouts } from '../src/http-server.js';
import { captureLogs } from './capture-logs.js';

/**
 * A real Koa server (createHttpServer: the app, the connection caps and timeouts, over
 * createService, with the console's assets, + openSqliteStore on a temporary file, or
 * openPostgres on a given database) on 127.0.0.1:0, signing with the TEST ONLY seed of @licence/vectors, on a clock the test moves.
 * The same pieces `startServer` wires, minus the embedded default (no key file, no banner), so a
 * test can hand in the clock, TRUST_PROXY, the caps and the timeouts.
 */

const signatureKeys = loadSignatureVectors().keys;

/** TEST ONLY (signatures.json): public on purpose, never used for real data. */
export const TEST_SEED = decodeBase64(signatureKeys.primary.seed, 'seed', 32);
export const TEST_PUBLIC_KEY = signatureKeys.primary.publicKey;

// A product User-Agent that the filter of docs/protocol.md#user-agent-filter lets through, and the
// service clock the test moves (the port speaks milliseconds): shared with the Lambda suite through
// @licence/http-vector-runner.
export { createTestClock, PRODUCT_UA } from '@licence/http-vector-runner';
export type { TestClock } from '@licence/http-vector-runner';

/** docs/protocol.md#client-address: TRUST_PROXY, a hop count or a list of trusted CIDRs. */
type TrustProxy = NonNullable<ServiceOptions['trustProxy']>;

export interface TestServerOptions {
  /** Milliseconds since the epoch; default: the real time at start. */
  readonly clockStartMs?: number;
  /** Default: a random token (the admin API is on). `null`: the admin API is off. */
  readonly adminToken?: string | null;
  readonly trustProxy?: TrustProxy;
  /** The server's timeouts (default: the production ones, http-server.ts). */
  readonly timeouts?: Partial<HttpTimeouts>;
  /**
   * The connection caps; default what `licence serve` derives from the same configuration
   * (connection-limits.ts): 10,000 in all, 100 per address, and under `trustProxy` none with a hop
   * count, the list's proxies exempt with CIDRs.
   */
  readonly limits?: Partial<ConnectionLimits>;
  /** How often the `connection stats` line may be written; default once a minute (and at close). */
  readonly statsIntervalMs?: number;
  /**
   * Default 'sqlite' (a temporary file, the memory rate limiter). 'postgres': the store
   * and the PostgreSQL rate limiter of @licence/store-postgres on `databaseUrl`, as `licence serve`
   * runs with DATABASE_URL.
   */
  readonly backend?: 'sqlite' | 'postgres';
  /** Required with backend 'postgres': a database of a throwaway cluster (tooling/pg-cluster). */
  readonly databaseUrl?: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly publicKey: string;
  readonly adminToken: string | null;
  readonly clock: TestClock;
  readonly service: Service;
  readonly store: Store;
  readonly server: Server;
  /** The connection caps' counts. */
  readonly guard: ConnectionGuard;
  readonly backend: 'sqlite' | 'postgres';
  /** The SQLite file, for tests that read it directly ('' on PostgreSQL: see databaseUrl). */
  readonly dbFile: string;
  /** The PostgreSQL database (backend 'postgres'); undefined on SQLite. */
  readonly databaseUrl: string | undefined;
  /** Every JSON log line the server wrote. */
  readonly lines: string[];
  /** Closes connections, the server and the store (the last `connection stats` line), and removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * The key each connection counts under, as `licence serve` takes it from the same TRUST_PROXY
 * (ServiceConfig's `clientAddress`, start-server.ts): `trustProxy` written back as the variable.
 */
function connectionKeyOf(trustProxy: TrustProxy | undefined): ConnectionKey {
  const text =
    trustProxy === undefined ? '' : 'hops' in trustProxy ? String(trustProxy.hops) : trustProxy.cidrs.join(',');
  const read = readServiceConfig({ TRUST_PROXY: text }, '/', { only: ['clientAddress'] });
  if (!read.ok) throw new Error(`startTestServer: TRUST_PROXY=${text} refused`);
  return read.value.clientAddress.connectionKey;
}

/** The caps `licence serve` takes with the default variables and `trustProxy`, in a process with room for them. */
function serveLimits(trustProxy: TrustProxy | undefined): ConnectionLimits {
  const configured = {
    maxConnections: undefined,
    maxConnectionsPerIp: DEFAULT_MAX_CONNECTIONS_PER_IP,
    trustProxy,
    // This server runs no webhook deliverer: no descriptor to keep for its attempts.
    webhookConcurrency: 0,
  };
  const limits = connectionLimits(configured, Number.POSITIVE_INFINITY);
  if (!limits.ok) throw new Error('the default connection caps did not fit');
  return limits.value;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'licence-test-'));
  const dbFile = join(dir, 'licence.db');
  const { logger, lines } = captureLogs('debug');
  const clock = createTestClock(options.clockStartMs ?? Date.now());
  const adminToken = options.adminToken === undefined ? randomBytes(24).toString('base64url') : options.adminToken;
  const backend = options.backend ?? 'sqlite';
  const { store, rateLimiter, closeBackend } = await openBackend(backend, options.databaseUrl, dbFile, logger);
  const service = createService({
    store,
    rateLimiter,
    clock,
    signer: createNodeSigner(TEST_SEED),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    ...(adminToken === null ? {} : { adminToken }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    // As `licence serve` (open-runtime.ts): /console is served whenever the admin API is on.
    console: consoleAssets,
  });
  const { server, guard, stats } = createHttpServer({
    service,
    logger,
    limits: { ...serveLimits(options.trustProxy), ...options.limits },
    connectionKey: connectionKeyOf(options.trustProxy),
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    ...(options.statsIntervalMs === undefined ? {} : { statsIntervalMs: options.statsIntervalMs }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server is not listening on TCP');
  const { port } = address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    publicKey: TEST_PUBLIC_KEY,
    adminToken,
    clock,
    service,
    store,
    server,
    guard,
    backend,
    dbFile: backend === 'sqlite' ? dbFile : '',
    databaseUrl: backend === 'postgres' ? options.databaseUrl : undefined,
    lines,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        stats.stop();
        await closeBackend();
        rmSync(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** The same two backends `licence serve` picks between (src/open-runtime.ts). */
async function openBackend(
  backend: 'sqlite' | 'postgres',
  databaseUrl: string | undefined,
  dbFile: string,
  logger: Logger,
): Promise<{ store: Store; rateLimiter: RateLimiter; closeBackend: () => Promise<void> }> {
  if (backend === 'postgres') {
    if (databaseUrl === undefined) throw new Error("startTestServer: backend 'postgres' needs a databaseUrl");
    const opened = await openPostgres({ connectionString: databaseUrl, logger });
    return { store: opened.store, rateLimiter: opened.rateLimiter, closeBackend: () => opened.close() };
  }
  const store = openSqliteStore({ file: dbFile, logger });
  return { store, rateLimiter: createMemoryRateLimiter(), closeBackend: () => store.close() };
}
