import type Database from 'better-sqlite3';

interface PendingWrite {
  /** Runs the write inside the batch; returns how to settle its promise once the batch is over. */
  readonly execute: () => () => void;
  /** The whole batch failed to commit. */
  readonly fail: (error: unknown) => void;
}

export interface WriteBatcher {
  /**
   * Queues `run` for the next group commit and resolves with its result once that commit is
   * done (never before: a resolved write is in the file). `run` executes inside one
   * `BEGIN IMMEDIATE` transaction, under a savepoint of its own: if it throws, only its changes
   * are rolled back and only its promise rejects.
   */
  write<T>(run: () => T): Promise<T>;
  /** Commits what is queued now, synchronously (before close). */
  flush(): void;
}

/**
 * Group commit for the hot path (docs/protocol.md#verdict: every verdict logs a request and binds
 * or touches a domain). A commit costs far more than the row it writes in WAL mode (the frames it
 * appends, and the checkpoint fsyncs they bring); the writes that arrive during one turn of the
 * event loop share one transaction instead. Nothing is lost to it: each promise settles only after
 * its transaction committed or failed, and one failing write does not undo the others.
 */
export function createWriteBatcher(db: Database.Database): WriteBatcher {
  let queue: PendingWrite[] = [];
  let scheduled = false;

  // Called inside the outer transaction, better-sqlite3 runs this as a SAVEPOINT: a write that
  // throws is rolled back alone, and the batch goes on.
  const savepoint = db.transaction((run: () => void) => run());

  const commit = db.transaction((batch: readonly PendingWrite[]) => batch.map((pending) => pending.execute()));

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) {
      return;
    }
    let settlers: (() => void)[];
    try {
      settlers = commit.immediate(batch);
    } catch (error) {
      // The commit itself failed (lock timeout, disk full, closed database): nothing of the
      // batch was written, so every caller hears it.
      for (const pending of batch) {
        pending.fail(error);
      }
      return;
    }
    for (const settle of settlers) {
      settle();
    }
  }

  return {
    write<T>(run: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          execute: () => {
            let settle = (): void => undefined;
            try {
              savepoint(() => {
                const value = run();
                settle = () => resolve(value);
              });
            } catch (error) {
              settle = () => reject(error);
            }
            return settle;
          },
          fail: reject,
        });
        if (!scheduled) {
          scheduled = true;
          // setImmediate: after the I/O of this turn, so the requests parsed together commit
          // together; a lone write waits for one turn only.
          setImmediate(flush);
        }
      });
    },
    flush,
  };
}
