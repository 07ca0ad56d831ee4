import { errorMessage } from '@licence/core';
import { createMemoryRateLimiter } from '@licence/service';
import type { RateLimiter } from '@licence/service';
import { ANSWERS, isRateLimitHits } from './rate-limit-messages.js';
import type { RateLimitAnswers } from './rate-limit-messages.js';

/** A worker as the primary sees it: a cluster `Worker` or a forked `ChildProcess`. */
export interface WorkerEnd {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  send(message: RateLimitAnswers, callback: (error: Error | null) => void): unknown;
}

export interface PrimaryRateLimiter {
  /** Answers the hit messages of this worker from now on; the function detaches it. */
  attach(worker: WorkerEnd): () => void;
}

/**
 * The primary's side of the rate limit on SQLite with LICENCE_WORKERS >= 2 (README "Workers"):
 * ONE limiter (by default this process's memory limiter) counts the requests of every worker, so
 * the limit of docs/protocol.md#rate-limit stays exactly 30 per client address whichever worker
 * each request reaches. The hits of a batch are counted in the order the worker sent them.
 */
export function createPrimaryRateLimiter(limiter: RateLimiter = createMemoryRateLimiter()): PrimaryRateLimiter {
  return {
    attach(worker) {
      const onMessage = (message: unknown): void => {
        if (!isRateLimitHits(message)) return;
        const { batch } = message;
        // A worker that died since asked: its requests went with it, so a failed send is ignored
        // (without the callback, Node would raise it as an 'error' event).
        const answer = (reply: RateLimitAnswers): void => void worker.send(reply, () => undefined);
        Promise.all(message.hits.map((hit) => limiter.hit(hit.client, hit.nowMs))).then(
          (verdicts) => answer({ type: ANSWERS, batch, verdicts }),
          (error: unknown) => answer({ type: ANSWERS, batch, error: errorMessage(error) }),
        );
      };
      worker.on('message', onMessage);
      return () => void worker.off('message', onMessage);
    },
  };
}
