/** The rate limit's settings (docs/protocol.md#rate-limit), as every RateLimiter takes them. */
export interface SlidingWindowOptions {
  /** Accepted requests per client in any window (docs/protocol.md#rate-limit: 30). */
  readonly limit?: number;
  /** The sliding window in milliseconds (docs/protocol.md#rate-limit: 60 s). */
  readonly windowMs?: number;
}

/** The settings with their defaults, checked: whole numbers, at least 1. */
export function slidingWindow(options: SlidingWindowOptions): { readonly limit: number; readonly windowMs: number } {
  const limit = options.limit ?? 30;
  const windowMs = options.windowMs ?? 60_000;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`limit: expected an integer >= 1, got ${String(limit)}`);
  }
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    throw new RangeError(`windowMs: expected an integer >= 1, got ${String(windowMs)}`);
  }
  return { limit, windowMs };
}

/**
 * docs/protocol.md#rate-limit: a refused request's Retry-After, the whole seconds until the oldest
 * counted request (at `oldestMs`) leaves the window, at least 1.
 */
export function retryAfterSeconds(oldestMs: number, windowMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((oldestMs + windowMs - nowMs) / 1000));
}
