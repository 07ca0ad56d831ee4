import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, slidingWindow } from './sliding-window.js';

describe('the sliding window (docs/protocol.md#rate-limit)', () => {
  it('defaults to 30 requests in 60 s', () => {
    expect(slidingWindow({})).toEqual({ limit: 30, windowMs: 60_000 });
    expect(slidingWindow({ limit: 2, windowMs: 1_000 })).toEqual({ limit: 2, windowMs: 1_000 });
  });

  it('refuses nonsense options', () => {
    expect(() => slidingWindow({ limit: 0 })).toThrow('limit: expected an integer >= 1, got 0');
    expect(() => slidingWindow({ limit: 1.5 })).toThrow('limit: expected an integer >= 1, got 1.5');
    expect(() => slidingWindow({ windowMs: 0.5 })).toThrow('windowMs: expected an integer >= 1, got 0.5');
  });

  it('says the whole seconds until the oldest counted request leaves, at least 1', () => {
    expect(retryAfterSeconds(0, 60_000, 45_000)).toBe(15);
    expect(retryAfterSeconds(0, 60_000, 44_999)).toBe(16);
    expect(retryAfterSeconds(0, 1_000, 999)).toBe(1);
    expect(retryAfterSeconds(0, 1_000, 5_000)).toBe(1);
  });
});
