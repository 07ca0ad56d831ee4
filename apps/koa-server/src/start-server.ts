import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import type { Logger } from '@licence/service';
import { describeDatabase } from '@licence/store-postgres';
import { answerClientError } from './client-error.js';
import type { ServerConfig } from './config.js';
import { createApp } from './create-app.js';
import { openRuntime } from './open-runtime.js';
import type { Runtime } from './open-runtime.js';
import { printableDatabaseUrl } from './printable-database-url.js';
import { PURGE_INTERVAL_MS, startPurgeTimer } from './purge-timer.js';
import { shellQuote, startupBanner } from './startup-banner.js';

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
  /** How long `close` waits for requests in flight before cutting connections; default 10 s. */
  readonly shutdownTimeoutMs?: number;
}

export interface RunningServer {
  /** `http://host:port`, with the port actually bound (PORT=0 picks one). */
  readonly url: string;
  readonly publicKey: string;
  readonly server: Server;
  readonly runtime: Runtime;
  /** Stops accepting, lets requests in flight finish (up to the limit), closes the store. Idempotent. */
  close(): Promise<void>;
}

export const SHUTDOWN_TIMEOUT_MS = 10_000;
/** A licence request is a few hundred bytes: 30 s to send one is plenty (Node's default is 300 s). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Opens the runtime (embedded default included), listens, prints the banner, starts the purge timer. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config, logger } = options;
  const runtime = await openRuntime(config, {
    logger,
    ...(options.random === undefined ? {} : { random: options.random }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const app = createApp({ service: runtime.service, logger });
  const server = createServer(app.callback());
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, logger));

  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const port = boundPort(server.address());
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  const purge = startPurgeTimer(runtime.service, logger, options.purgeIntervalMs ?? PURGE_INTERVAL_MS);
  const database = config.database.kind === 'postgres' ? describeDatabase(config.database.url) : config.database.file;
  logger.info({ url, publicKey: runtime.publicKey, dataDir: config.dataDir, database }, 'licence service started');
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
      ...(config.database.kind === 'postgres' ? { databaseUrl: printableDatabaseUrl(config.database.url) } : {}),
    }),
  );

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      purge.stop();
      await stopAccepting(server, options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS, logger);
      await purge.first;
      await runtime.close();
      logger.info({}, 'licence service stopped');
    })();
    return closing;
  };
  return { url, publicKey: runtime.publicKey, server, runtime, close };
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
