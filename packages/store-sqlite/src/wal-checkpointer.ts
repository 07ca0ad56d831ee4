import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { errorMessage } from '@licence/core';
import type { Logger } from '@licence/service';
import { WAL_SIZE_LIMIT_BYTES } from './wal-size-limit.js';

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
 * `journal_size_limit` cuts it only then, so an idle server would keep it for good. So when the
 * PASSIVE checkpoint copied every frame and the file is larger than the limit, a TRUNCATE
 * checkpoint empties it. The connection's busy timeout is 0: if a writer or a reader of the WAL is
 * at work, it gives up at once (busy) and the next second tries again; with everything copied it has
 * no page to copy, so it holds the write lock only for the truncation (docs/protocol.md#storage).
 */
const THREAD = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
const walSize = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
const timer = setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    const copiedAll = row.busy === 0 && row.log === row.checkpointed;
    if (copiedAll && walSize() > workerData.walLimitBytes) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) { parentPort.postMessage(String(error && error.message)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface WalCheckpointer {
  /** Ends the thread after its checkpoint in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop (docs/protocol.md#storage: SQLite). By default the
 * commit that takes the WAL past 1,000 pages copies it into the database file itself, with its
 * fsyncs, on the thread that serves requests: 5 to 17 ms about once a second under load, which
 * every request queued behind it waited for (the server README's "Benchmark"). Here a worker
 * thread checkpoints every second on a connection of its own and `db` no longer does
 * (`wal_autocheckpoint = 0`). If the thread cannot start or dies, `db` checkpoints itself again,
 * so the WAL never grows without bound.
 */
export function startWalCheckpointer(
  db: Database.Database,
  file: string,
  logger: Logger | undefined,
  intervalMs: number = CHECKPOINT_INTERVAL_MS,
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = { driver, file, intervalMs, walLimitBytes: WAL_SIZE_LIMIT_BYTES };
  const worker = new Worker(THREAD, { eval: true, workerData });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  const fallBack = (reason: string): void => {
    if (stopping || !db.open) return;
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
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
