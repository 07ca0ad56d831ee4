import type { RateLimiter } from '@licence/service';
import { HITS, isRateLimitAnswers } from './rate-limit-messages.js';
import type { RateLimitAnswers, RateLimitHit, RateLimitHits, RateLimitVerdict } from './rate-limit-messages.js';

/** The primary as a worker sees it: `process` in a cluster worker, or a forked `ChildProcess`. */
export interface PrimaryEnd {
  readonly connected: boolean;
  send?(message: RateLimitHits, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

export interface WorkerRateLimiterOptions {
  /** How long a batch may wait for the primary's answer; default 1 s. */
  readonly timeoutMs?: number;
}

/** Far above the primary's usual answer (well under a millisecond), far below a client's patience. */
export const PRIMARY_TIMEOUT_MS = 1000;

interface Waiting {
  readonly hits: readonly { readonly hit: RateLimitHit; readonly settle: Settle }[];
  readonly timer: NodeJS.Timeout;
}

interface Settle {
  resolve(verdict: RateLimitVerdict): void;
  reject(error: Error): void;
}

/**
 * A worker's rate limiter on SQLite with LICENCE_WORKERS >= 2 (README "Workers"): it asks the
 * primary's one limiter (primary-rate-limiter.ts), so the limit of docs/protocol.md#rate-limit
 * holds across workers. The hits of one event-loop turn travel as one message. A primary that
 * does not answer in time, or a closed channel, rejects the hit: the service then answers 503
 * service-unavailable, as for any limiter that fails (never a signed refusal).
 */
export function createWorkerRateLimiter(primary: PrimaryEnd, options: WorkerRateLimiterOptions = {}): RateLimiter {
  const timeoutMs = options.timeoutMs ?? PRIMARY_TIMEOUT_MS;
  const waiting = new Map<number, Waiting>();
  let queued: { hit: RateLimitHit; settle: Settle }[] = [];
  let nextBatch = 0;

  const fail = (batch: number, reason: string): void => {
    const entry = waiting.get(batch);
    if (entry === undefined) return;
    waiting.delete(batch);
    clearTimeout(entry.timer);
    for (const { settle } of entry.hits) settle.reject(new Error(reason));
  };

  const answer = (message: RateLimitAnswers): void => {
    const entry = waiting.get(message.batch);
    if (entry === undefined) return;
    if ('error' in message) {
      fail(message.batch, `the primary's rate limiter failed: ${message.error}`);
      return;
    }
    waiting.delete(message.batch);
    clearTimeout(entry.timer);
    entry.hits.forEach(({ settle }, i) => {
      const verdict = message.verdicts[i];
      if (verdict === undefined) settle.reject(new Error('the primary answered fewer hits than it was sent'));
      else settle.resolve(verdict);
    });
  };

  const flush = (): void => {
    const hits = queued;
    queued = [];
    nextBatch += 1;
    const batch = nextBatch;
    const timer = setTimeout(() => fail(batch, `the primary process did not answer within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
    waiting.set(batch, { hits, timer });
    if (!primary.connected || primary.send === undefined) {
      fail(batch, 'the channel to the primary process is closed');
      return;
    }
    primary.send({ type: HITS, batch, hits: hits.map(({ hit }) => hit) }, (error) => {
      if (error !== null) fail(batch, `the primary process could not be asked: ${error.message}`);
    });
  };

  primary.on('message', (message) => {
    if (isRateLimitAnswers(message)) answer(message);
  });
  primary.on('disconnect', () => {
    for (const batch of [...waiting.keys()]) fail(batch, 'the channel to the primary process is closed');
  });

  return {
    hit(client, nowMs) {
      return new Promise((resolve, reject) => {
        // setImmediate: after the I/O of this turn, so every request parsed in it joins one message.
        if (queued.length === 0) setImmediate(flush);
        queued.push({ hit: { client, nowMs }, settle: { resolve, reject } });
      });
    },
  };
}
