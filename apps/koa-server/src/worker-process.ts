import { isRecord } from '@licence/core';
import type { ServerConfig } from './config.js';
import { createLogger } from './create-logger.js';
import type { CliIo } from './run-cli.js';
import { listenForShutdown } from './shutdown-signals.js';
import { startServer } from './start-server.js';
import type { RunningServer } from './start-server.js';
import { errorText } from './startup-error.js';
import { createWorkerRateLimiter } from './worker-rate-limiter.js';
import type { PrimaryEnd } from './worker-rate-limiter.js';

/**
 * One worker of `licence serve` with LICENCE_WORKERS >= 2 (README "Workers"): a cluster worker that
 * opens its own store connection (or pool), builds the service and listens on the port the primary
 * shares (serve-workers.ts). It tells the primary when it listens, or the one line why it could
 * not, and drains like a single process on SIGTERM or SIGINT, or when the primary is gone.
 */

export const LISTENING = 'licence:worker-listening';
export const FAILED = 'licence:worker-failed';

export type WorkerReport =
  | { readonly type: typeof LISTENING; readonly url: string }
  | { readonly type: typeof FAILED; readonly text: string };

export function isWorkerReport(message: unknown): message is WorkerReport {
  if (!isRecord(message)) return false;
  return (
    (message.type === LISTENING && typeof message.url === 'string') ||
    (message.type === FAILED && typeof message.text === 'string')
  );
}

/** The worker's side of the IPC channel: `process` in a cluster worker. */
type Primary = PrimaryEnd & { send?(message: WorkerReport): boolean; disconnect?(): void };

/** `id`: the cluster's worker id (1, 2, ...; a replacement gets the next one). */
export async function serveAsWorker(config: ServerConfig, io: CliIo, primary: Primary, id: number): Promise<number> {
  // Every line names its worker (a process number, no personal data): which process did what.
  const logger = createLogger({
    level: config.logLevel,
    ...(io.logDestination === undefined ? {} : { destination: io.logDestination }),
  }).child({ worker: id });
  const signals = listenForShutdown(logger);
  // PostgreSQL's limiter is already shared through the database (rate_limit_windows); SQLite's is
  // the primary's memory.
  const rateLimiter = config.database.kind === 'sqlite' ? createWorkerRateLimiter(primary) : undefined;
  let running: RunningServer;
  try {
    running = await startServer({
      config,
      logger,
      worker: { count: config.workers, ...(rateLimiter === undefined ? {} : { rateLimiter }) },
    });
  } catch (error) {
    // The primary prints the line once, whichever worker failed (two workers: one line, as today).
    primary.send?.({ type: FAILED, text: errorText(error) });
    signals.dispose();
    primary.disconnect?.();
    return 1;
  }
  primary.send?.({ type: LISTENING, url: running.url });
  // The primary gone (killed): nothing would stop this worker; it drains as on SIGTERM.
  const orphaned = new Promise<void>((resolve) => primary.on('disconnect', resolve));
  await Promise.race([signals.received, orphaned]);
  try {
    await running.close();
  } finally {
    signals.dispose();
    // The IPC channel keeps the event loop alive: closing it lets the worker exit.
    if (primary.connected) primary.disconnect?.();
  }
  return 0;
}
