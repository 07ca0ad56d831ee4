import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { createConnectionStats, STATS_INTERVAL_MS } from './connection-stats.js';

const entries = (lines: readonly string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('connection stats (docs/protocol.md#limits)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes one info line a minute with the counts since the last one, and none when nothing moved', () => {
    expect(STATS_INTERVAL_MS).toBe(60_000);
    const { logger, lines } = captureLogs();
    const stats = createConnectionStats(logger);
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    expect(lines).toEqual([]);
    stats.count('refusedPerAddress');
    stats.count('refusedPerAddress');
    stats.timedOut({});
    vi.advanceTimersByTime(STATS_INTERVAL_MS - 1);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1);
    stats.count('refusedTotal');
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    stats.stop();
    expect(entries(lines)).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'connection stats',
        clientAborts: 0,
        refusedPerAddress: 2,
        refusedTotal: 0,
        timedOut: 1,
      }),
      expect.objectContaining({ msg: 'connection stats', refusedTotal: 1, refusedPerAddress: 0, timedOut: 0 }),
    ]);
  });

  it('counts a client abort once per connection, not after a timeout, and writes what is left at stop', () => {
    const { logger, lines } = captureLogs();
    const stats = createConnectionStats(logger);
    const socket = {};
    stats.clientAborted(socket);
    stats.clientAborted(socket);
    stats.clientAborted({});
    const late = {};
    stats.timedOut(late);
    stats.clientAborted(late);
    stats.stop();
    expect(entries(lines)).toEqual([
      expect.objectContaining({ msg: 'connection stats', clientAborts: 2, timedOut: 1 }),
    ]);
    // Stopped: the timer no longer writes.
    stats.count('refusedTotal');
    vi.advanceTimersByTime(STATS_INTERVAL_MS * 2);
    expect(lines).toHaveLength(1);
  });
});
