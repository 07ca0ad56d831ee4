import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { PURGE_INTERVAL_MS, startPurgeTimer } from './purge-timer.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startPurgeTimer (docs/protocol.md#privacy: the server purges by itself, daily)', () => {
  it('purges once at start, and leaves the line to the service (one line per purge)', async () => {
    const { logger, lines } = captureLogs();
    let calls = 0;
    const timer = startPurgeTimer({ purge: () => Promise.resolve(++calls * 7) }, logger);
    await timer.first;
    timer.stop();
    expect(calls).toBe(1);
    expect(lines).toEqual([]);
  });

  it('logs a failed purge as an error and keeps going', async () => {
    const { logger, lines } = captureLogs();
    const timer = startPurgeTimer({ purge: () => Promise.reject(new Error('database is locked')) }, logger);
    await timer.first;
    timer.stop();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 50,
      msg: 'purge failed',
      err: { message: 'database is locked' },
    });
  });

  it('purges daily by default: once at start, not at 24 h - 1 ms, again at 24 h and 48 h', async () => {
    expect(PURGE_INTERVAL_MS).toBe(86_400_000);
    vi.useFakeTimers();
    const { logger } = captureLogs();
    let calls = 0;
    const timer = startPurgeTimer({ purge: () => Promise.resolve(++calls) }, logger);
    await timer.first;
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(86_400_000 - 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(calls).toBe(3);
    timer.stop();
    await vi.advanceTimersByTimeAsync(3 * 86_400_000);
    expect(calls).toBe(3);
  });

  it('runs again at each interval', async () => {
    const { logger } = captureLogs();
    let calls = 0;
    let second: () => void = () => undefined;
    const again = new Promise<void>((resolve) => {
      second = resolve;
    });
    const timer = startPurgeTimer(
      {
        purge: () => {
          calls += 1;
          if (calls === 2) second();
          return Promise.resolve(0);
        },
      },
      logger,
      5,
    );
    await again;
    timer.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
