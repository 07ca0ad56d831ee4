import type { RateLimiter } from './store-port.js';
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

/** The clients counted since one swap (below), and the latest request time any of them holds. */
interface Generation {
  readonly clients: Map<string, number[]>;
  newest: number;
}

const generation = (): Generation => ({ clients: new Map(), newest: -Infinity });

/**
 * The rate limit (docs/protocol.md#rate-limit) for one process: a sliding window LOG, not clock
 * minutes. Each client keeps the times of its accepted requests inside the window (at most `limit`
 * of them), so a new client may send `limit` requests at once, and the next one is refused until
 * the oldest of them leaves the window: `retryAfter` is the whole seconds until then, at least 1.
 *
 * A request inside the window counts until `time + windowMs`, when it leaves. Memory stays
 * bounded without a pause: clients live in two generations, `current` (counted since the last
 * swap) and `previous` (the generation before; a client that comes back moves to `current`). A
 * swap, at most once per window, drops `previous` whole, in O(1), so a client is forgotten at
 * most two windows after its last counted request; a walk that deleted a million clients one by
 * one stalled every request for half a second (docs/protocol.md#rate-limit). Dropping is exact:
 * a generation lasts at least a window, and a time is only ever recorded below its generation's
 * start plus a window (else the hit swaps first), so every time in `previous` has left the
 * window by the next swap.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const { limit, windowMs } = slidingWindow(options);

  let current = generation();
  let previous = generation();
  let swapped = -Infinity;

  const prune = (times: number[], nowMs: number): void => {
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) + windowMs <= nowMs) drop += 1;
    if (drop > 0) times.splice(0, drop);
  };

  const swap = (nowMs: number): void => {
    // `current` goes too when every time it holds has left the window (nobody came for a window).
    previous = current.newest + windowMs <= nowMs ? generation() : current;
    current = generation();
    swapped = nowMs;
  };

  /** Puts `client` and its times in `current`. */
  const keep = (client: string, times: number[]): void => {
    current.clients.set(client, times);
    current.newest = Math.max(current.newest, times[times.length - 1] ?? -Infinity);
  };

  /** The client's times, moved into `current` when it was last counted in `previous`. */
  const find = (client: string): number[] | undefined => {
    const times = current.clients.get(client);
    if (times !== undefined) return times;
    const old = previous.clients.get(client);
    if (old === undefined) return undefined;
    previous.clients.delete(client);
    keep(client, old);
    return old;
  };

  return {
    hit(client, nowMs) {
      if (nowMs - swapped >= windowMs) swap(nowMs);
      const times = find(client);
      if (times === undefined) {
        // A one-slot array: most clients send one request a day, and `[]` then push reserves 17.
        keep(client, [nowMs]);
        return Promise.resolve({ allowed: true, retryAfter: 0 });
      }
      prune(times, nowMs);
      if (times.length < limit) {
        // A clock that steps back must not unsort the log: count such a request at the latest
        // time already recorded.
        const time = Math.max(nowMs, times[times.length - 1] ?? nowMs);
        times.push(time);
        current.newest = Math.max(current.newest, time);
        return Promise.resolve({ allowed: true, retryAfter: 0 });
      }
      const retryAfter = retryAfterSeconds(times[0] ?? nowMs, windowMs, nowMs);
      return Promise.resolve({ allowed: false, retryAfter });
    },
    retryAfter(client, nowMs) {
      const times = find(client);
      if (times === undefined) return 0;
      prune(times, nowMs);
      return times.length < limit ? 0 : retryAfterSeconds(times[0] ?? nowMs, windowMs, nowMs);
    },
    size: () => current.clients.size + previous.clients.size,
  };
}
