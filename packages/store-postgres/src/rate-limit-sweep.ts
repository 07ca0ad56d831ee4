import { describeError, errorMessage } from '@licence/core';
import type { Logger } from '@licence/service';
import type { LimiterPool } from './limiter-pool.js';

export interface WindowSweeper {
  /** Deletes every client's row whose hits all left the window at `nowMs`; resolves how many. */
  sweep(nowMs: number): Promise<number>;
  /** Starts a sweep in the background when none ran in the last window. */
  startIfDue(nowMs: number): void;
  /** Resolves once the background sweep (if any) has finished. */
  settled(): Promise<void>;
}

/**
 * Rows of clients that never come back are deleted by a sweep that runs in the background at most
 * once per window per process; its failure is logged (never a client address), never a hit's.
 */
export function windowSweeper(backing: LimiterPool, windowMs: number, logger: Logger | undefined): WindowSweeper {
  let lastSweep = -Infinity;
  let sweeping: Promise<void> = Promise.resolve();

  async function sweep(nowMs: number): Promise<number> {
    await backing.ready();
    // A client whose latest counted hit left the window has nothing left to count.
    const result = await backing.pool.query('DELETE FROM rate_limit_windows WHERE hits[cardinality(hits)] + $2 <= $1', [
      nowMs,
      windowMs,
    ]);
    return result.rowCount ?? 0;
  }

  return {
    sweep,
    startIfDue(nowMs) {
      if (nowMs - lastSweep >= windowMs) {
        lastSweep = nowMs;
        sweeping = sweep(nowMs).then(
          (deleted) => logger?.debug({ deleted }, 'postgres rate limiter: swept old hits'),
          (error: unknown) => {
            if (logger === undefined) console.warn(`postgres rate limiter: sweep failed: ${errorMessage(error)}`);
            else logger.warn({ err: describeError(error) }, 'postgres rate limiter: sweep failed');
          },
        );
      }
    },
    settled: () => sweeping,
  };
}
