import type { RateLimiter } from './ports.js';
import { retryAfterSeconds, slidingWindow } from './sliding-window.js';
import type { SlidingWindowOptions } from './sliding-window.js';

export type MemoryRateLimiterOptions = SlidingWindowOptions;

export interface MemoryRateLimiter extends RateLimiter {
  /**
   * Whole seconds until `client` may be counted again (at least 1) while its window is full, 0
   * while it has room. Counts nothing: the admin API asks it before it knows whether a request
   * fails its authentication (docs/protocol.md#administration).
   */
  readonly retryAfter: (client: string, nowMs: number) => number;
  /** How many clients are tracked (for tests of the memory bound). */
  readonly size: () => number;
}

/**
 * The rate limit (docs/protocol.md#rate-limit) for one process: a sliding window LOG, not clock
 * minutes. Each client keeps the times of its accepted requests inside the window (at most `limit`
 * of them), so a new client may send `limit` requests at once, and the next one is refused until
 * the oldest of them leaves the window: `retryAfter` is the whole seconds until then, at least 1.
 *
 * A request inside the window counts until `time + windowMs`, when it leaves. Memory stays
 * bounded: at most `limit` times per client, and clients whose window emptied are dropped by a
 * sweep that runs at most once per window (amortised O(1) per hit).
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const { limit, windowMs } = slidingWindow(options);

  /** Client -> accepted request times, oldest first. */
  const clients = new Map<string, number[]>();
  let lastSweep = -Infinity;

  const prune = (times: number[], nowMs: number): void => {
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) + windowMs <= nowMs) drop += 1;
    if (drop > 0) times.splice(0, drop);
  };

  const sweep = (nowMs: number): void => {
    for (const [client, times] of clients) {
      prune(times, nowMs);
      if (times.length === 0) clients.delete(client);
    }
    lastSweep = nowMs;
  };

  return {
    hit(client, nowMs) {
      if (nowMs - lastSweep >= windowMs) sweep(nowMs);
      let times = clients.get(client);
      if (times === undefined) {
        times = [];
        clients.set(client, times);
      }
      prune(times, nowMs);
      if (times.length < limit) {
        // A clock that steps back must not unsort the log: count such a request at the latest
        // time already recorded.
        times.push(Math.max(nowMs, times[times.length - 1] ?? nowMs));
        return Promise.resolve({ allowed: true, retryAfter: 0 });
      }
      const retryAfter = retryAfterSeconds(times[0] ?? nowMs, windowMs, nowMs);
      return Promise.resolve({ allowed: false, retryAfter });
    },
    retryAfter(client, nowMs) {
      const times = clients.get(client);
      if (times === undefined) return 0;
      prune(times, nowMs);
      return times.length < limit ? 0 : retryAfterSeconds(times[0] ?? nowMs, windowMs, nowMs);
    },
    size: () => clients.size,
  };
}
