import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { errorMessage } from '@licence/core';
import type { Logger } from '@licence/service';
import { limitWalSize, unlimitWalSize, WAL_HIGH_WATER_BYTES, WAL_SIZE_LIMIT_BYTES } from './wal-size-limit.js';

/** How often the background thread copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/** SQLite's own threshold (https://sqlite.org/pragma.html#pragma_wal_autocheckpoint), put back on a failure. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The thread's code: its own connection to the file, a PASSIVE checkpoint every interval
 * (https://sqlite.org/c3ref/wal_checkpoint_v2.html: it never waits for a lock, never blocks a
 * reader or a writer, and copies what it can), closed when the store says stop.
 *
 * A checkpoint copies the WAL but never shrinks its file: after a burst the file keeps the size
 * the burst gave it (300 MB after a million verdicts) until a writer restarts it, and
 * `journal_size_limit` cuts it only then, so an idle server would keep it for good. So once the
 * writers are quiet (two checkpoints in a row found the same frames, all copied) and the file is
 * larger than the limit, a TRUNCATE checkpoint empties it. Only when quiet: the truncation holds
 * the write lock with its fsync, and a request's write that came meanwhile would wait for it on the
 * event loop (190 ms under a flood of webhook events, when it ran every few seconds). The
 * connection's busy timeout is 0: with a writer or a reader of the WAL at work it gives up at once
 * (busy) and the next second tries again (docs/protocol.md#storage).
 */
const THREAD = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
const walSize = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
let lastFrames = -1;
const timer = setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    const quiet = row.busy === 0 && row.log === row.checkpointed && row.log === lastFrames;
    lastFrames = row.busy === 0 ? row.log : -1;
    if (quiet && walSize() > workerData.walLimitBytes) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) { parentPort.postMessage(String(error && error.message)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * The request connection checkpoints only past WAL_HIGH_WATER_BYTES, a backstop. A writer restarts
 * the WAL only once a checkpoint has caught up with it, which the thread's PASSIVE checkpoints never
 * do while writes keep coming without a pause: 3.9 GB of WAL after a million request-log writes at
 * 45,000 a second. The writer's own checkpoint always catches up (nothing else writes meanwhile in
 * this process), so the WAL restarts at about that size; the thread has copied most of it already,
 * so the backstop copies about a second of writes, once per 256 MiB of them.
 */
function backstopCheckpoints(db: Database.Database): void {
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  db.pragma(`wal_autocheckpoint = ${Math.ceil(WAL_HIGH_WATER_BYTES / pageSize)}`);
}

export interface WalCheckpointer {
  /** Ends the thread after its checkpoint in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop (docs/protocol.md#storage: SQLite). By default the
 * commit that takes the WAL past 1,000 pages copies it into the database file itself, with its
 * fsyncs, on the thread that serves requests: 5 to 17 ms about once a second under load, which
 * every request queued behind it waited for (the server README's "Benchmark"). Here a worker
 * thread checkpoints every second on a connection of its own and `db` does only past
 * WAL_HIGH_WATER_BYTES (backstopCheckpoints). If the thread cannot start or dies, `db` checkpoints
 * itself again at SQLite's threshold.
 */
export function startWalCheckpointer(
  db: Database.Database,
  file: string,
  logger: Logger | undefined,
  intervalMs: number = CHECKPOINT_INTERVAL_MS,
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = {
    driver,
    file,
    intervalMs,
    walLimitBytes: WAL_SIZE_LIMIT_BYTES,
  };
  const worker = new Worker(THREAD, { eval: true, workerData });
  worker.unref();
  backstopCheckpoints(db);
  // The thread cuts the WAL once the writers are quiet; a request's writer cutting it at each restart
  // (journal_size_limit) would truncate on the event loop, in the middle of a burst.
  unlimitWalSize(db);
  let stopping = false;
  const fallBack = (reason: string): void => {
    if (stopping || !db.open) return;
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    limitWalSize(db);
    logger?.warn({ file, reason }, 'sqlite store: the checkpoint thread failed; checkpoints run on the main thread');
  };
  worker.on('message', (reason: unknown) => {
    logger?.warn({ file, reason: String(reason) }, 'sqlite store: a background checkpoint failed');
  });
  worker.on('error', (error) => fallBack(errorMessage(error)));
  worker.on('exit', (code) => fallBack(`exited with code ${code}`));
  const exited = new Promise<void>((resolvePromise) => worker.once('exit', () => resolvePromise()));
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        // Unref'd, the thread would not keep the process alive while it is awaited here: a process
        // with nothing else to do would exit at once, before what follows the close ran.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
