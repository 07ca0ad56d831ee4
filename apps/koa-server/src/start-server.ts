import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { configErrorLine, createWebhookDeliverer, delivererOptions } from '@licence/service';
import type { Logger, RateLimiter, WebhookDeliverer } from '@licence/service';
import { describeDatabase } from '@licence/store-postgres';
import type { ServerConfig } from './config.js';
import { connectionLimits, readOpenFileLimit } from './connection-limits.js';
import type { ConnectionLimits } from './connection-limits.js';
import { hostPort } from './host-port.js';
import { createHttpServer } from './http-server.js';
import type { HttpTimeouts } from './http-server.js';
import { listenError } from './listen-error.js';
import { openRuntime } from './open-runtime.js';
import type { Runtime } from './open-runtime.js';
import { printableDatabaseUrl } from './printable-database-url.js';
import { PURGE_INTERVAL_MS, startPurgeTimer } from './purge-timer.js';
import { shellQuote, startupBanner } from './startup-banner.js';
import { StartupError } from './startup-error.js';

export interface StartServerOptions {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** Where the human banner goes; default stderr, so stdout stays pure JSON log lines. */
  readonly print?: (text: string) => void;
  /** How the banner tells the user to run the CLI; default `node <this process's script>`. */
  readonly cli?: string;
  readonly random?: RandomBytes;
  readonly now?: () => number;
  readonly purgeIntervalMs?: number;
  /** How often the webhook deliverer looks for due deliveries; default the deliverer's (1 s). */
  readonly webhookIntervalMs?: number;
  /** How long `close` waits for requests in flight before cutting connections; default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** Tests shorten them; default the values of docs/protocol.md#limits (http-server.ts). */
  readonly timeouts?: Partial<HttpTimeouts>;
  /** How often the `connection stats` line may be written; default once a minute. */
  readonly statsIntervalMs?: number;
  /** The process's open-file limit; default read from /proc/self/limits (connection-limits.ts). */
  readonly openFileLimit?: number;
  /**
   * Set in a worker of `licence serve` with LICENCE_WORKERS >= 2 (serve-workers.ts): the primary runs
   * the purge timer and the webhook deliverer and prints the banner, so this process does none of
   * them; it takes its share of LICENCE_MAX_CONNECTIONS and, on SQLite, the primary's rate limiter.
   */
  readonly worker?: WorkerRole;
}

/** What a worker process is handed (see `StartServerOptions.worker`). */
export interface WorkerRole {
  /** LICENCE_WORKERS: the connection total is shared among them. */
  readonly count: number;
  /** The limiter that asks the primary (worker-rate-limiter.ts); undefined: the store's own (PostgreSQL). */
  readonly rateLimiter?: RateLimiter;
}

export interface RunningServer {
  /** `http://host:port`, with the port actually bound (PORT=0 picks one). */
  readonly url: string;
  readonly publicKey: string;
  readonly server: Server;
  readonly runtime: Runtime;
  readonly limits: ConnectionLimits;
  /** Stops accepting, lets requests in flight finish (up to the limit), closes the store. Idempotent. */
  close(): Promise<void>;
}

export const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Opens the runtime (embedded default included), listens, prints the banner, starts the purge timer
 * and the webhook deliverer; a worker (`options.worker`) only opens its runtime and listens.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config, logger, worker } = options;
  // Checked before anything is created: a bad limit stops the start with one line.
  const limits = workerShare(checkedLimits(config, options.openFileLimit), worker?.count ?? 1);
  const runtime = await openRuntime(config, {
    logger,
    ...(options.random === undefined ? {} : { random: options.random }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(worker?.rateLimiter === undefined ? {} : { rateLimiter: worker.rateLimiter }),
  });
  const { server, stats } = createHttpServer({
    service: runtime.service,
    logger,
    limits,
    connectionKey: config.clientAddress.connectionKey,
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    ...(options.statsIntervalMs === undefined ? {} : { statsIntervalMs: options.statsIntervalMs }),
  });
  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    stats.stop();
    await runtime.close();
    throw listenError(error, config.host, config.port);
  }
  const url = `http://${hostPort(config.host, boundPort(server.address()))}`;
  // A worker leaves these to the primary: they run once per service (serve-workers.ts).
  const background = worker === undefined ? startBackground(options, runtime) : undefined;
  if (worker === undefined) announce(options, runtime, url, limits);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // The deliverer stops while the requests in flight finish (startBackground).
      await Promise.all([
        stopAccepting(server, options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS, logger),
        background?.stop(),
      ]);
      stats.stop();
      await runtime.close();
      logger.info({}, 'licence service stopped');
    })();
    return closing;
  };
  return { url, publicKey: runtime.publicKey, server, runtime, limits, close };
}

/** The connection caps of docs/protocol.md#limits, or the one startup line that says why not. */
export function checkedLimits(config: ServerConfig, openFileLimit?: number): ConnectionLimits {
  const limits = connectionLimits(config, openFileLimit ?? readOpenFileLimit());
  if (!limits.ok) throw new StartupError(limits.errors.map(configErrorLine).join('; '));
  return limits.value;
}

/**
 * One worker's share of the total (README "Workers"): ceil(total / N), so the machine holds about
 * the configured total. The cap per address stays per worker: the cluster spreads one client's
 * connections over the workers, so a client holds at most N times it at once.
 */
function workerShare(limits: ConnectionLimits, count: number): ConnectionLimits {
  return count <= 1 ? limits : { ...limits, maxConnections: Math.ceil(limits.maxConnections / count) };
}

/** What runs once per service beside the requests: the purge timer and the webhook deliverer. */
export interface Background {
  /** Stops both; resolves once the deliverer's attempts in flight and the first purge ended. */
  stop(): Promise<void>;
}

/** Starts the purge timer and the webhook deliverer on `runtime`'s service and store. */
export function startBackground(
  options: Pick<StartServerOptions, 'config' | 'logger' | 'now' | 'purgeIntervalMs' | 'webhookIntervalMs'>,
  runtime: Runtime,
): Background {
  const purge = startPurgeTimer(runtime.service, options.logger, options.purgeIntervalMs ?? PURGE_INTERVAL_MS);
  const deliverer = startDeliverer(options, runtime);
  return {
    stop: async () => {
      purge.stop();
      // The deliverer waits for its own attempts in flight (each at most 15 s), which must end
      // before the store closes. An attempt cut short is not lost: its claim ends by itself and
      // any process delivers it later (docs/protocol.md#webhooks).
      await deliverer.stop();
      await purge.first;
    },
  };
}

/**
 * The webhook deliverer, in this process (docs/protocol.md#webhooks): it sends what the store's
 * outbox holds, apart from the requests, so a verdict never waits for a receiver. Every process
 * sharing a database (PostgreSQL, or one SQLite file) runs one: the store's claim gives each
 * delivery to one process at a time.
 */
function startDeliverer(
  options: Pick<StartServerOptions, 'config' | 'logger' | 'now' | 'webhookIntervalMs'>,
  runtime: Runtime,
): WebhookDeliverer {
  // docs/protocol.md#delivery: its concurrency is the sockets it may hold, which checkedLimits kept
  // out of the connections.
  const deliverer = createWebhookDeliverer(
    delivererOptions(options.config, { store: runtime.store, logger: options.logger, now: options.now }),
  );
  deliverer.start(options.webhookIntervalMs);
  return deliverer;
}

/**
 * The `licence service started` log line and the human banner, once per service: by the primary
 * when LICENCE_WORKERS >= 2 (serve-workers.ts), once every worker listens.
 */
export function announce(
  options: Pick<StartServerOptions, 'config' | 'logger' | 'print' | 'cli'>,
  runtime: Pick<Runtime, 'publicKey' | 'createdSigningKey'>,
  url: string,
  limits: ConnectionLimits,
): void {
  const { config } = options;
  const database = config.database.kind === 'postgres' ? describeDatabase(config.database.url) : config.database.file;
  options.logger.info(
    {
      url,
      publicKey: runtime.publicKey,
      dataDir: config.dataDir,
      database,
      ...limits,
      webhookAllowPrivate: config.webhookAllowPrivate,
      webhooksPerAuthor: config.webhooksPerAuthor,
      webhookConcurrency: config.webhookConcurrency,
      // docs/protocol.md#staging-hosts: how many patterns LICENCE_STAGING_HOSTS gave (the banner lists them).
      stagingHosts: config.stagingHosts.length,
      workers: config.workers,
    },
    'licence service started',
  );
  // docs/protocol.md#client-address: a hop count beyond loopback lets a direct client pick its
  // address; the log line says it in the banner's words (the service's notice, the one text).
  const trustProxyNotice = config.clientAddress.notice(config.host);
  const { warning } = trustProxyNotice;
  if (warning !== undefined) {
    options.logger.warn({ trustProxy: config.trustProxy, host: config.host }, warning.replace(/^warning: /, ''));
  }
  const print = options.print ?? ((text: string) => void process.stderr.write(text));
  print(
    startupBanner({
      url,
      publicKey: runtime.publicKey,
      dataDir: config.dataDir,
      cli: options.cli ?? defaultCli(),
      createdSigningKey: runtime.createdSigningKey,
      signingKeyFile: config.signingKey.kind === 'embedded' ? config.signingKey.path : undefined,
      adminApi: config.adminToken !== undefined,
      webhookAllowPrivate: config.webhookAllowPrivate,
      stagingHosts: config.stagingHosts,
      workers: config.workers,
      trustProxyNotice,
      ...(config.database.kind === 'postgres' ? { databaseUrl: printableDatabaseUrl(config.database.url) } : {}),
    }),
  );
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolvePromise, rejectPromise) => {
    const onError = (error: Error): void => rejectPromise(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePromise();
    });
  });
}

/**
 * `server.close()` stops accepting and (Node 19+) closes idle keep-alive connections; requests in
 * flight finish. Past `timeoutMs` the remaining connections are cut, so a stuck client never
 * holds a shutdown forever.
 */
async function stopAccepting(server: Server, timeoutMs: number, logger: Logger): Promise<void> {
  await new Promise<void>((resolvePromise) => {
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs }, 'shutdown: requests still in flight, closing their connections');
      server.closeAllConnections();
    }, timeoutMs);
    timer.unref();
    server.close((error) => {
      clearTimeout(timer);
      if (error !== undefined) logger.warn({ err: describeError(error) }, 'shutdown: server.close reported an error');
      resolvePromise();
    });
    server.closeIdleConnections();
  });
}

function defaultCli(): string {
  const script = process.argv[1];
  return script === undefined ? 'licence' : `node ${shellQuote(script)}`;
}

function boundPort(address: AddressInfo | string | null): number {
  // A TCP listen always gives an AddressInfo; a string would mean a pipe, which we never open.
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return address.port;
}
