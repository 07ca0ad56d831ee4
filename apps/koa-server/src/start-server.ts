import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { configErrorLine, createWebhookDeliverer } from '@licence/service';
import type { Logger, WebhookDeliverer } from '@licence/service';
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
 * and the webhook deliverer.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config, logger } = options;
  // Checked before anything is created: a bad limit stops the start with one line.
  const limits = connectionLimits(config, options.openFileLimit ?? readOpenFileLimit());
  if (!limits.ok) throw new StartupError(limits.errors.map(configErrorLine).join('; '));
  const runtime = await openRuntime(config, {
    logger,
    ...(options.random === undefined ? {} : { random: options.random }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const { server, stats } = createHttpServer({
    service: runtime.service,
    logger,
    limits: limits.value,
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
  const purge = startPurgeTimer(runtime.service, logger, options.purgeIntervalMs ?? PURGE_INTERVAL_MS);
  const deliverer = startDeliverer(options, runtime);
  announce(options, runtime, url, limits.value);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      purge.stop();
      // The deliverer stops while the requests in flight finish: it waits for its own attempts in
      // flight (each at most 15 s), and both must end before the store closes. An attempt cut
      // short is not lost: its claim ends by itself and any process delivers it later
      // (docs/protocol.md#webhooks).
      await Promise.all([
        stopAccepting(server, options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS, logger),
        deliverer.stop(),
      ]);
      stats.stop();
      await purge.first;
      await runtime.close();
      logger.info({}, 'licence service stopped');
    })();
    return closing;
  };
  return { url, publicKey: runtime.publicKey, server, runtime, limits: limits.value, close };
}

/**
 * The webhook deliverer, in this process (docs/protocol.md#webhooks): it sends what the store's
 * outbox holds, apart from the requests, so a verdict never waits for a receiver. Every process
 * sharing a database (PostgreSQL, or one SQLite file) runs one: the store's claim gives each
 * delivery to one process at a time.
 */
function startDeliverer(options: StartServerOptions, runtime: Runtime): WebhookDeliverer {
  const deliverer = createWebhookDeliverer({
    store: runtime.store,
    clock: { now: options.now ?? Date.now },
    logger: options.logger,
    allowPrivate: options.config.webhookAllowPrivate,
  });
  deliverer.start(options.webhookIntervalMs);
  return deliverer;
}

/** The `licence service started` log line and the human banner. */
function announce(options: StartServerOptions, runtime: Runtime, url: string, limits: ConnectionLimits): void {
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
      // docs/protocol.md#staging-hosts: how many patterns LICENCE_STAGING_HOSTS gave (the banner lists them).
      stagingHosts: config.stagingHosts.length,
    },
    'licence service started',
  );
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
