import { isRecord } from '@licence/core';

/**
 * The messages a worker and the primary of `licence serve` exchange over the cluster's IPC channel
 * for the rate limit on SQLite (docs/protocol.md#rate-limit): one message carries every hit of one
 * event-loop turn of a worker, one answer carries their verdicts in the same order. The batch id
 * matches an answer to its hits.
 */

export const HITS = 'licence:rate-limit-hits';
export const ANSWERS = 'licence:rate-limit-answers';

/** One request to count: the client bucket the service computed and the worker's clock. */
export interface RateLimitHit {
  readonly client: string;
  readonly nowMs: number;
}

export interface RateLimitHits {
  readonly type: typeof HITS;
  readonly batch: number;
  readonly hits: readonly RateLimitHit[];
}

export interface RateLimitVerdict {
  readonly allowed: boolean;
  readonly retryAfter: number;
}

/** The verdicts of one batch, or why the primary could not give them. */
export type RateLimitAnswers =
  | { readonly type: typeof ANSWERS; readonly batch: number; readonly verdicts: readonly RateLimitVerdict[] }
  | { readonly type: typeof ANSWERS; readonly batch: number; readonly error: string };

export function isRateLimitHits(message: unknown): message is RateLimitHits {
  return (
    isRecord(message) &&
    message.type === HITS &&
    typeof message.batch === 'number' &&
    Array.isArray(message.hits) &&
    message.hits.every((hit) => isRecord(hit) && typeof hit.client === 'string' && typeof hit.nowMs === 'number')
  );
}

export function isRateLimitAnswers(message: unknown): message is RateLimitAnswers {
  return (
    isRecord(message) &&
    message.type === ANSWERS &&
    typeof message.batch === 'number' &&
    (typeof message.error === 'string' || Array.isArray(message.verdicts))
  );
}
