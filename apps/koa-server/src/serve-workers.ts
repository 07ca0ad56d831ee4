import type { Logger } from '@licence/service';
import type { ServerConfig } from './config.js';
import { createLogger } from './create-logger.js';
import { openRuntime } from './open-runtime.js';
import type { Runtime } from './open-runtime.js';
import { createPrimaryRateLimiter } from './primary-rate-limiter.js';
import type { CliIo } from './run-cli.js';
import { listenForShutdown } from './shutdown-signals.js';
import type { ShutdownSignals } from './shutdown-signals.js';
import { announce, checkedLimits, startBackground } from './start-server.js';
import { startWorkerPool } from './worker-pool.js';
import type { WorkerPool } from './worker-pool.js';

/**
 * `licence serve` with LICENCE_WORKERS >= 2: the PRIMARY process (README "Workers"). It opens the
 * runtime once (migrations, the embedded signing key: never N workers racing to create them), forks
 * the workers that answer requests (worker-process.ts), prints the banner once they all listen, and
 * runs what must run once per service: the purge timer, the webhook deliverer and, on SQLite, the
 * rate limiter every worker asks (primary-rate-limiter.ts). Resolves the exit code.
 */
export async function serveWorkers(config: ServerConfig, io: CliIo): Promise<number> {
  const logger = createLogger({
    level: config.logLevel,
    ...(io.logDestination === undefined ? {} : { destination: io.logDestination }),
  });
  const signals = listenForShutdown(logger);
  try {
    return await supervise(config, io, logger, signals);
  } finally {
    signals.dispose();
  }
}

async function supervise(config: ServerConfig, io: CliIo, logger: Logger, signals: ShutdownSignals): Promise<number> {
  const limits = checkedLimits(config);
  const runtime = await openRuntime(config, { logger });
  // PostgreSQL: every worker uses the store's shared limiter (rate_limit_windows) on its own pool.
  const limiter = config.database.kind === 'sqlite' ? createPrimaryRateLimiter() : undefined;
  const pool = startWorkerPool({
    count: config.workers,
    logger,
    ...(limiter === undefined ? {} : { onFork: (worker) => void limiter.attach(worker) }),
  });
  const url = await readyOrStop(pool, runtime);
  announce({ config, logger, print: io.stderr }, runtime, url, limits);
  const background = startBackground({ config, logger }, runtime);
  const gaveUp = await Promise.race([signals.received.then(() => undefined), pool.gaveUp]);
  // Workers drain and the deliverer finishes its attempts at the same time; the store closes last.
  await Promise.all([pool.stop(), background.stop()]);
  await runtime.close();
  if (gaveUp !== undefined) throw gaveUp;
  logger.info({}, 'licence service stopped');
  return 0;
}

/** The URL once every worker listens; else every worker stopped, the store closed, and the first failure thrown. */
async function readyOrStop(pool: WorkerPool, runtime: Runtime): Promise<string> {
  try {
    return await pool.ready;
  } catch (error) {
    await pool.stop();
    await runtime.close();
    throw error;
  }
}
