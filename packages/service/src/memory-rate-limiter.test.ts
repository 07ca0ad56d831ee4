import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

describe('createMemoryRateLimiter (docs/protocol.md#rate-limit)', () => {
  it('lets a new client send 30 at once and refuses the 31st', async () => {
    const limiter = createMemoryRateLimiter();
    for (let i = 0; i < 30; i += 1) expect(await limiter.hit('a', 1_000)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('a', 1_000)).toEqual({ allowed: false, retryAfter: 60 });
  });

  it('is a sliding window: Retry-After counts down to when the oldest leaves', async () => {
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 60_000 });
    await limiter.hit('a', 0);
    await limiter.hit('a', 20_000);
    await limiter.hit('a', 40_000);
    expect(await limiter.hit('a', 45_000)).toEqual({ allowed: false, retryAfter: 15 });
    expect(await limiter.hit('a', 59_999)).toEqual({ allowed: false, retryAfter: 1 });
    // At 60 s the first request leaves the window: one slot, not a whole new minute.
    expect(await limiter.hit('a', 60_000)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('a', 60_001)).toEqual({ allowed: false, retryAfter: 20 });
  });

  it('never says less than one second', async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 1_000 });
    await limiter.hit('a', 0);
    expect(await limiter.hit('a', 999)).toEqual({ allowed: false, retryAfter: 1 });
  });

  it('does not count refused requests', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 10_000 });
    await limiter.hit('a', 0);
    await limiter.hit('a', 0);
    for (let i = 0; i < 50; i += 1) await limiter.hit('a', 5_000);
    expect((await limiter.hit('a', 10_000)).allowed).toBe(true);
  });

  it('counts each client apart', async () => {
    const limiter = createMemoryRateLimiter({ limit: 1 });
    expect((await limiter.hit('a', 0)).allowed).toBe(true);
    expect((await limiter.hit('b', 0)).allowed).toBe(true);
    expect((await limiter.hit('a', 0)).allowed).toBe(false);
  });

  it('drops clients whose window emptied, so memory stays bounded', async () => {
    const limiter = createMemoryRateLimiter({ limit: 5, windowMs: 1_000 });
    for (let i = 0; i < 1_000; i += 1) await limiter.hit(`client-${i}`, 0);
    expect(limiter.size()).toBe(1_000);
    await limiter.hit('late', 1_000);
    expect(limiter.size()).toBe(1);
  });

  it('keeps working when the clock steps back', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 1_000 });
    await limiter.hit('a', 5_000);
    await limiter.hit('a', 4_000);
    expect((await limiter.hit('a', 4_500)).allowed).toBe(false);
    expect((await limiter.hit('a', 6_000)).allowed).toBe(true);
  });

  it('refuses nonsense options', () => {
    expect(() => createMemoryRateLimiter({ limit: 0 })).toThrow('limit: expected an integer >= 1, got 0');
    expect(() => createMemoryRateLimiter({ windowMs: 0.5 })).toThrow('windowMs: expected an integer >= 1, got 0.5');
  });
});
