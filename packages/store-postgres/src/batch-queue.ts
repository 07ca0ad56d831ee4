/**
 * Group commit for the hot path (docs/protocol.md#storage): calls made while the event loop is busy
 * with other requests are sent to PostgreSQL together, as ONE statement over arrays, instead of
 * one round trip each. The first call queued schedules a flush with `setImmediate`, which runs
 * once the current batch of I/O callbacks has been handled: under load every request parsed in
 * that turn joins the batch; alone, a call waits for nothing but the end of its own turn.
 *
 * Each caller still waits for ITS result, so nothing is acknowledged before the database has it
 * (the SQLite store's write batcher keeps the same promise). A failed statement rejects every call
 * of its batch with the same error: each answers its own 5xx (docs/protocol.md#errors: never a
 * signed refusal).
 */
/**
 * The most requests one batched statement carries . Big enough for every request
 * a busy process parses in one event-loop turn; small enough that a batch stays one short
 * statement far below statement_timeout.
 */
export const MAX_BATCH = 64;

export type BatchRunner<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

export interface BatchQueue<I, O> {
  /** Queues `item`; resolves with its own result once its batch has run. */
  push(item: I): Promise<O>;
  /** Calls queued and not yet sent. */
  readonly pending: number;
}

interface Waiting<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * `run` receives up to `maxBatch` items in arrival order and must resolve one result per item,
 * in the same order; a result array of another length is a bug, reported to every caller.
 */
export function createBatchQueue<I, O>(run: BatchRunner<I, O>, maxBatch: number): BatchQueue<I, O> {
  if (!Number.isInteger(maxBatch) || maxBatch < 1) {
    throw new RangeError(`maxBatch: expected an integer >= 1, got ${String(maxBatch)}`);
  }
  let queue: Waiting<I, O>[] = [];
  let scheduled = false;

  function send(batch: readonly Waiting<I, O>[]): void {
    let running: Promise<readonly O[]>;
    try {
      running = run(batch.map((waiting) => waiting.item));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (results) => {
        if (results.length !== batch.length) {
          const error = new Error(`batch: ${batch.length} items gave ${results.length} results`);
          for (const waiting of batch) waiting.reject(error);
          return;
        }
        for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as O);
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }

  function flush(): void {
    scheduled = false;
    const taken = queue;
    queue = [];
    for (let start = 0; start < taken.length; start += maxBatch) send(taken.slice(start, start + maxBatch));
  }

  return {
    push(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    get pending() {
      return queue.length;
    },
  };
}
