import { describe, expect, it } from 'vitest';
import { formatDay, formatInstant } from './dates.js';

describe('dates in the chosen language', () => {
  it('formatDay shows the UTC day itself, whatever the time zone, in each language', () => {
    expect(formatDay('2026-03-01', 'en')).toBe('1 Mar 2026');
    expect(formatDay('2026-03-01', 'fr')).toBe('1 mars 2026');
    expect(formatDay('2026-03-01', 'fr', true)).toBe('1 mars');
  });

  it('formatInstant shows date and time; it names the month in the language', () => {
    expect(formatInstant('2026-07-14T12:00:00Z', 'fr')).toMatch(/juil/);
    expect(formatInstant('2026-07-14T12:00:00Z', 'en')).toMatch(/Jul/);
  });

  it('formatInstant to the second when asked, to the minute otherwise', () => {
    expect(formatInstant('2026-07-14T12:00:07Z', 'en', true)).toMatch(/:07\b/);
    expect(formatInstant('2026-07-14T12:00:07Z', 'fr', true)).toMatch(/:07\b/);
    expect(formatInstant('2026-07-14T12:00:07Z', 'en')).not.toMatch(/:07\b/);
  });

  it('a value that is no date is shown as it came', () => {
    expect(formatInstant('soon', 'en')).toBe('soon');
    expect(formatDay('x', 'fr')).toBe('x');
  });
});
