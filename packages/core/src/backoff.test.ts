import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKOFF_BASE_SECONDS,
  BACKOFF_MAX_SECONDS,
  backoffSeconds,
  failedCallDelay,
  retryAfterSeconds,
} from './backoff.js';
import { ValidationError } from './validation-error.js';

// 2026-01-03T00:00:00Z, a Saturday.
const NOW = 1767398400;

describe('backoffSeconds (docs/protocol.md#back-off: 5 min doubling to 1 h)', () => {
  it.each([
    [1, 300],
    [2, 600],
    [3, 1200],
    [4, 2400],
    [5, 3600],
    [6, 3600],
    [7, 3600],
    [40, 3600],
    [Number.MAX_SAFE_INTEGER, 3600],
  ])('failure %i waits %i s', (failures, seconds) => {
    expect(backoffSeconds(failures)).toBe(seconds);
  });

  it('never decreases and stays within [5 min, 1 h]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (n) => {
        const here = backoffSeconds(n);
        const next = backoffSeconds(n + 1);
        expect(next).toBeGreaterThanOrEqual(here);
        expect(here).toBeGreaterThanOrEqual(BACKOFF_BASE_SECONDS);
        expect(here).toBeLessThanOrEqual(BACKOFF_MAX_SECONDS);
        // Below the cap each step doubles.
        if (next < BACKOFF_MAX_SECONDS) expect(next).toBe(here * 2);
      }),
    );
  });

  it.each([
    [0, 'failures: expected a positive integer, got 0'],
    [-1, 'failures: expected a positive integer, got -1'],
    [1.5, 'failures: expected a positive integer, got 1.5'],
    [Number.NaN, 'failures: expected a positive integer, got NaN'],
    ['2', 'failures: expected a positive integer, got string'],
    [null, 'failures: expected a positive integer, got null'],
  ])('refuses %s as a failure count', (failures, message) => {
    const call = () => backoffSeconds(failures as number);
    expect(call).toThrow(ValidationError);
    expect(call).toThrow(message);
  });
});

describe('retryAfterSeconds (RFC 9110 10.2.3)', () => {
  it.each([
    ['120', 120],
    ['1', 1],
    ['0', 1], // "now" would mean a call loop: at least one second
    ['3600', 3600],
    ['3601', 3600],
    ['86400', 3600],
    ['0120', 120],
    ['99999999999999999999999', 3600],
    [' 120\t', 120],
  ])('delta-seconds %j waits %i s', (header, seconds) => {
    expect(retryAfterSeconds(header, NOW)).toBe(seconds);
  });

  it.each([
    // IMF-fixdate, counted from NOW (Sat, 03 Jan 2026 00:00:00 GMT).
    ['Sat, 03 Jan 2026 00:15:00 GMT', 900],
    ['Sat, 03 Jan 2026 00:00:01 GMT', 1],
    ['Sat, 03 Jan 2026 00:00:00 GMT', 1], // now: clamped up
    ['Fri, 02 Jan 2026 23:00:00 GMT', 1], // past: clamped up
    ['Sat, 03 Jan 2026 01:00:00 GMT', 3600],
    ['Sat, 03 Jan 2026 05:00:00 GMT', 3600], // beyond an hour: clamped down
    ['Sat, 03 Jan 2026 00:59:60 GMT', 3600], // a leap second rolls into the next minute
    ['Mon, 03 Jan 2026 00:10:00 GMT', 600], // a wrong weekday name is not checked
    // The two obsolete forms a recipient must still accept (RFC 9110 5.6.7).
    ['Saturday, 03-Jan-26 00:10:00 GMT', 600],
    ['Sat Jan  3 00:10:00 2026', 600],
    ['Sat Jan 03 00:10:00 2026', 600],
  ])('HTTP-date %j waits %i s', (header, seconds) => {
    expect(retryAfterSeconds(header, NOW)).toBe(seconds);
  });

  it('reads a two-digit RFC 850 year as at most 50 years ahead', () => {
    // In 2026, "76" is 2076 (50 years ahead) but "77" is 1977, in the past.
    expect(retryAfterSeconds('Thursday, 01-Jan-76 00:00:00 GMT', NOW)).toBe(3600);
    expect(retryAfterSeconds('Saturday, 01-Jan-77 00:00:00 GMT', NOW)).toBe(1);
  });

  it('counts an HTTP-date from the given now, not from a clock', () => {
    expect(retryAfterSeconds('Sat, 03 Jan 2026 00:15:00 GMT', NOW + 600)).toBe(300);
  });

  it.each([
    '',
    ' ',
    'soon',
    '-5',
    '+5',
    '1.5',
    '1e3',
    '120 s',
    '0x10',
    'sat, 03 jan 2026 00:15:00 gmt', // HTTP-date is case-sensitive
    'Sat, 3 Jan 2026 00:15:00 GMT', // IMF-fixdate has a two-digit day
    'Sat, 03 Jan 2026 00:15:00 UTC',
    'Sat, 03 Jan 2026 00:15 GMT',
    'Sat, 31 Feb 2026 00:15:00 GMT', // no such day
    'Sat, 00 Jan 2026 00:15:00 GMT',
    'Sat, 03 Jan 2026 24:00:00 GMT',
    'Sat, 03 Jan 2026 00:60:00 GMT',
    'Sat, 03 Jan 2026 00:00:61 GMT',
    '2026-01-03T00:15:00Z', // ISO 8601 is not an HTTP-date
    'Sat, 03 Jan 2026 00:15:00 GMT, Sat, 03 Jan 2026 00:15:00 GMT',
  ])('%j is unusable', (header) => {
    expect(retryAfterSeconds(header, NOW)).toBeNull();
  });

  it('always answers null or a whole number of seconds in [1, 3600]', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 4_102_444_800 }), (header, now) => {
        const result = retryAfterSeconds(header, now);
        if (result !== null) {
          expect(Number.isInteger(result)).toBe(true);
          expect(result).toBeGreaterThanOrEqual(1);
          expect(result).toBeLessThanOrEqual(3600);
        }
      }),
    );
  });

  it('refuses a non-string header and a non-integer now', () => {
    expect(() => retryAfterSeconds(120 as unknown as string, NOW)).toThrow('retryAfter: expected a string, got number');
    expect(() => retryAfterSeconds('120', 1.5)).toThrow('now: expected an integer (seconds), got 1.5');
    expect(() => retryAfterSeconds('120', '1' as unknown as number)).toThrow(
      'now: expected an integer (seconds), got string',
    );
  });
});

describe('failedCallDelay', () => {
  it('follows the schedule for a transport failure', () => {
    expect(failedCallDelay({ failures: 1, now: NOW })).toBe(300);
    expect(failedCallDelay({ failures: 3, now: NOW })).toBe(1200);
  });

  it('honours Retry-After on a 429', () => {
    expect(failedCallDelay({ failures: 1, now: NOW, status: 429, retryAfter: '120' })).toBe(120);
    // The header wins even when it asks for longer than the schedule would.
    expect(failedCallDelay({ failures: 1, now: NOW, status: 429, retryAfter: '2000' })).toBe(2000);
    expect(failedCallDelay({ failures: 6, now: NOW, status: 429, retryAfter: 'Sat, 03 Jan 2026 00:15:00 GMT' })).toBe(
      900,
    );
  });

  it('falls back to the schedule on a 429 without a usable Retry-After', () => {
    expect(failedCallDelay({ failures: 2, now: NOW, status: 429 })).toBe(600);
    expect(failedCallDelay({ failures: 2, now: NOW, status: 429, retryAfter: null })).toBe(600);
    expect(failedCallDelay({ failures: 2, now: NOW, status: 429, retryAfter: 'soon' })).toBe(600);
  });

  it('ignores Retry-After on other statuses', () => {
    expect(failedCallDelay({ failures: 1, now: NOW, status: 503, retryAfter: '5' })).toBe(300);
    expect(failedCallDelay({ failures: 1, now: NOW, status: 200, retryAfter: '5' })).toBe(300);
  });

  it('refuses a failure count below one', () => {
    expect(() => failedCallDelay({ failures: 0, now: NOW })).toThrow('failures: expected a positive integer, got 0');
  });
});
