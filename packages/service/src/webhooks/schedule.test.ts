import { describe, expect, it } from 'vitest';
import {
  nextAttemptDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_JITTER,
  WEBHOOK_RETRY_DELAYS,
  webhookJitter,
} from './schedule.js';

const DAY = 86_400;

function schedule(jitter = 0): number[] {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const delay = nextAttemptDelay(attempt, { jitter });
    if (delay === null) return delays;
    delays.push(delay);
  }
}

describe('nextAttemptDelay (docs/protocol.md#webhooks)', () => {
  it('is the table: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 10 h, 24 h, 24 h, then failed', () => {
    expect(schedule()).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000, 36_000, 86_400, 86_400]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(11);
    expect(nextAttemptDelay(WEBHOOK_MAX_ATTEMPTS)).toBeNull();
    expect(nextAttemptDelay(1000)).toBeNull();
  });

  it('backs off in seconds, then minutes, then hours, never shrinking', () => {
    const [first, second, third, fourth] = schedule();
    expect(first).toBeLessThan(60);
    expect(second).toBeGreaterThanOrEqual(60);
    expect(third).toBeLessThan(3600);
    expect(fourth).toBeGreaterThanOrEqual(3600);
    const delays = schedule();
    for (let i = 1; i < delays.length; i += 1) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
  });

  it('spans at least 3 days before giving up, with any jitter', () => {
    const total = (delays: number[]) => delays.reduce((sum, delay) => sum + delay, 0);
    expect(total(schedule())).toBe(308_105); // 3 d 13 h 35 min 5 s
    expect(total(schedule())).toBeGreaterThanOrEqual(3 * DAY);
    for (const jitter of [0, 0.25, 0.5, 0.999]) expect(total(schedule(jitter))).toBeGreaterThanOrEqual(3 * DAY);
  });

  it('adds at most a tenth with jitter, deterministically', () => {
    expect(nextAttemptDelay(2, { jitter: 0.5 })).toBe(315);
    expect(nextAttemptDelay(2, { jitter: 0.5 })).toBe(315);
    schedule(0.999).forEach((delay, i) => {
      const base = WEBHOOK_RETRY_DELAYS[i] ?? 0;
      expect(delay).toBeGreaterThanOrEqual(base);
      expect(delay).toBeLessThanOrEqual(base * (1 + WEBHOOK_MAX_JITTER));
    });
  });

  it.each([
    [0, {}, 'attempt: expected a positive integer, got 0'],
    [1.5, {}, 'attempt: expected a positive integer, got 1.5'],
    ['1', {}, 'attempt: expected a positive integer, got string'],
    [1, { jitter: 1 }, 'jitter: expected a number from 0 to below 1, got 1'],
    [1, { jitter: -0.1 }, 'jitter: expected a number from 0 to below 1, got -0.1'],
    [1, { jitter: Number.NaN }, 'jitter: expected a number from 0 to below 1, got NaN'],
  ])('refuses attempt %j with %j', (attempt, options, message) => {
    // @ts-expect-error: wrong types on purpose
    expect(() => nextAttemptDelay(attempt, options)).toThrow(message);
  });
});

describe('webhookJitter', () => {
  it('is a fraction in [0, 1), the same for one id, spread across ids', () => {
    expect(webhookJitter('dlv_1')).toBe(webhookJitter('dlv_1'));
    const values = Array.from({ length: 1000 }, (_, i) => webhookJitter(`dlv_${i}`));
    for (const value of values) expect(value >= 0 && value < 1).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.4);
    expect(mean).toBeLessThan(0.6);
  });
});
