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

  it('counts a window that spans a swap of generations', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 1_000 });
    await limiter.hit('a', 0);
    await limiter.hit('a', 900);
    // The first hit a window after the first one swaps: 'a' is now in the previous generation.
    await limiter.hit('b', 1_000);
    expect(await limiter.hit('a', 1_100)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('a', 1_200)).toEqual({ allowed: false, retryAfter: 1 });
    expect(limiter.retryAfter('a', 1_200)).toBe(1);
    // Another swap at 2 s: 'a' (900 and 1,100) moved to the generation that is now the previous one.
    await limiter.hit('b', 2_000);
    expect(await limiter.hit('a', 2_050)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('a', 2_060)).toEqual({ allowed: false, retryAfter: 1 });
  });

  it('drops a generation whole once its clients are two windows old, and keeps the others', async () => {
    const limiter = createMemoryRateLimiter({ limit: 5, windowMs: 1_000 });
    for (let i = 0; i < 1_000; i += 1) await limiter.hit(`old-${i}`, i);
    // The swap at 1,500 keeps the first thousand: the latest of them (999) is still in the window.
    await limiter.hit('mid', 1_500);
    for (let i = 0; i < 10; i += 1) await limiter.hit(`new-${i}`, 1_800);
    expect(limiter.size()).toBe(1_011);
    // The swap at 2,500 drops them whole; 'mid' and the ten of 1,800 are still counted.
    await limiter.hit('late', 2_500);
    expect(limiter.size()).toBe(12);
    for (let i = 0; i < 4; i += 1) await limiter.hit('new-0', 2_500);
    expect(await limiter.hit('new-0', 2_500)).toEqual({ allowed: false, retryAfter: 1 });
  });

  it('never holds a counted request in a generation it drops (property)', async () => {
    // A plain log that forgets nothing against the limiter, over random hits and pauses of up to
    // two and a half windows (the clock steps back in the test below).
    const limit = 3;
    const windowMs = 2_000;
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const limiter = createMemoryRateLimiter({ limit, windowMs });
    const reference = new Map<string, number[]>();
    let now = 0;
    for (let step = 0; step < 20_000; step += 1) {
      now += random(10) === 0 ? random(2_500) : random(50);
      const client = `c${random(20)}`;
      const times = (reference.get(client) ?? []).filter((time) => time + windowMs > now);
      const expected =
        times.length < limit
          ? { allowed: true, retryAfter: 0 }
          : { allowed: false, retryAfter: Math.max(1, Math.ceil(((times[0] ?? 0) + windowMs - now) / 1000)) };
      if (expected.allowed) times.push(now);
      reference.set(client, times);
      expect(await limiter.hit(client, now)).toEqual(expected);
    }
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
