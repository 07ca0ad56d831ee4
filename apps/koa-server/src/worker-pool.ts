import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from '@licence/service';
import { StartupError } from './startup-error.js';
import { FAILED, isWorkerReport, LISTENING } from './worker-process.js';

/**
 * The workers of `licence serve` with LICENCE_WORKERS >= 2, as the primary keeps them (README
 * "Workers"): forked with node:cluster (they share the listening port), each one replaced when it
 * dies, unless they keep dying right after their start.
 */

/** A worker that dies this soon after its fork counts toward a crash loop. */
export const EARLY_EXIT_MS = 5000;
/** This many early deaths in a row: the primary stops the service instead of forking forever. */
export const EARLY_EXITS_LIMIT = 5;

export interface WorkerPoolOptions {
  readonly count: number;
  readonly logger: Logger;
  /** Called for every worker forked, the first ones and their replacements. */
  readonly onFork?: (worker: Worker) => void;
  readonly now?: () => number;
}

export interface WorkerPool {
  /** The URL once every first worker listens; rejects with the first failure's StartupError. */
  readonly ready: Promise<string>;
  /** Resolves with the error that stops the service when workers keep dying right after their start. */
  readonly gaveUp: Promise<StartupError>;
  /** Stops replacing workers, sends SIGTERM to each (each drains), resolves once every one exited. */
  stop(): Promise<void>;
}

interface Settle<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: StartupError): void;
}

function settle<T>(): Settle<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: StartupError) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** What the pool's handlers share. */
interface Pool {
  readonly options: WorkerPoolOptions;
  readonly now: () => number;
  readonly live: Set<Worker>;
  readonly listening: Set<number>;
  readonly ready: Settle<string>;
  readonly gaveUp: Settle<StartupError>;
  stopping: boolean;
  started: boolean;
  earlyExits: number;
  onEmpty: () => void;
}

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const pool: Pool = {
    options,
    now: options.now ?? Date.now,
    live: new Set(),
    listening: new Set(),
    ready: settle(),
    gaveUp: settle(),
    stopping: false,
    started: false,
    earlyExits: 0,
    onEmpty: () => undefined,
  };
  for (let i = 0; i < options.count; i += 1) fork(pool);
  return { ready: pool.ready.promise, gaveUp: pool.gaveUp.promise, stop: () => stop(pool) };
}

function fork(pool: Pool): void {
  const { logger } = pool.options;
  const forkedAt = pool.now();
  const worker = cluster.fork();
  const pid = worker.process.pid;
  pool.live.add(worker);
  // The worker's id and pid, so an operator (and the tests) can tell which process is which.
  logger.info({ worker: worker.id, pid }, 'worker started');
  pool.options.onFork?.(worker);
  worker.on('message', (message: unknown) => onReport(pool, worker, message));
  worker.on('exit', (code: number | null, signal: string | null) => {
    pool.live.delete(worker);
    onExit(pool, { worker: worker.id, pid, code, signal }, forkedAt);
  });
  // A signal or message that cannot reach a worker that just died: its exit is what matters.
  worker.on('error', (error: Error) =>
    logger.warn({ worker: worker.id, pid, err: error.message }, 'worker channel error'),
  );
}

function onReport(pool: Pool, worker: Worker, message: unknown): void {
  if (!isWorkerReport(message)) return;
  if (message.type === FAILED && !pool.started) pool.ready.reject(new StartupError(message.text));
  if (message.type !== LISTENING) return;
  pool.options.logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker listening');
  if (pool.started) return;
  pool.listening.add(worker.id);
  if (pool.listening.size === pool.options.count) {
    pool.started = true;
    pool.ready.resolve(message.url);
  }
}

interface Exit {
  readonly worker: number;
  readonly pid: number | undefined;
  readonly code: number | null;
  readonly signal: string | null;
}

/** Replaces a worker that died, unless the pool stops, has not started, or is in a crash loop. */
function onExit(pool: Pool, exit: Exit, forkedAt: number): void {
  if (pool.stopping) {
    if (pool.live.size === 0) pool.onEmpty();
    return;
  }
  if (!pool.started) {
    const { worker, code, signal } = exit;
    pool.ready.reject(
      new StartupError(`LICENCE_WORKERS: worker ${worker} exited (code ${code}, signal ${signal}) before it listened`),
    );
    return;
  }
  pool.options.logger.warn({ ...exit }, 'worker exited; starting another');
  pool.earlyExits = pool.now() - forkedAt < EARLY_EXIT_MS ? pool.earlyExits + 1 : 0;
  if (pool.earlyExits < EARLY_EXITS_LIMIT) {
    fork(pool);
    return;
  }
  pool.gaveUp.resolve(
    new StartupError(
      `LICENCE_WORKERS: ${EARLY_EXITS_LIMIT} workers in a row exited within ${EARLY_EXIT_MS / 1000} s of their start; the service stops (see the log lines above)`,
    ),
  );
}

function stop(pool: Pool): Promise<void> {
  pool.stopping = true;
  if (pool.live.size === 0) return Promise.resolve();
  const empty = new Promise<void>((resolve) => {
    pool.onEmpty = resolve;
  });
  for (const worker of pool.live) worker.process.kill('SIGTERM');
  return empty;
}
