import { describe, expect, it } from 'vitest';
import { parseDateTime } from './parse-date-time.js';

describe('parseDateTime', () => {
  it('reads RFC 3339 date-times with a zone', () => {
    expect(parseDateTime('2026-12-31T23:59:59Z')).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(parseDateTime('2026-12-31T23:59Z')).toBe(Date.parse('2026-12-31T23:59:00Z') / 1000);
    expect(parseDateTime('2026-12-31T23:59:59.999Z')).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(parseDateTime('2027-01-01T01:00:00+02:00')).toBe(Date.parse('2026-12-31T23:00:00Z') / 1000);
    expect(parseDateTime('2026-12-31t23:00:00-01:30')).toBe(Date.parse('2027-01-01T00:30:00Z') / 1000);
    // Years 0 to 99 are themselves, not 1900 to 1999 (Date.UTC's trap).
    expect(parseDateTime('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z') / 1000);
    for (const bad of [
      '2026-12-31',
      '2026-12-31T23:59:59',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-31T24:00:00Z',
      'tomorrow',
      '2026-12-31T23:59:60Z',
      '2026-12-31T23:00:00+24:00',
    ]) {
      expect(parseDateTime(bad)).toBeNull();
    }
  });
});
