import { describe, expect, it } from 'vitest';
import { utcDay } from './activity-day.js';
import { storedColumn } from './stored-column.js';

describe('utcDay', () => {
  it('counts whole UTC days since the epoch, rounding down before 1970 too', () => {
    expect(utcDay(Date.UTC(2026, 10, 24, 0, 0, 0) / 1000)).toBe(20_781);
    expect(utcDay(Date.UTC(2026, 10, 24, 0, 0, 0) / 1000 - 1)).toBe(20_780);
    expect(utcDay(-1)).toBe(-1);
  });
});

describe('storedOutcome', () => {
  it('takes ok, essai and every motif', () => {
    for (const value of ['ok', 'essai', 'autre_domaine', 'revocation', 'inconnue']) {
      expect(storedColumn.outcome('row', value)).toBe(value);
    }
  });

  it('refuses anything else, naming the row', () => {
    expect(() => storedColumn.outcome('activity_days.outcome', 'OK')).toThrow(
      'activity_days.outcome: expected one of ok, essai, autre_domaine',
    );
  });
});
