import { describe, expect, it } from 'vitest';
import { twelveMonthsBefore } from './retention.js';

const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('twelveMonthsBefore (docs/protocol.md#privacy)', () => {
  it('is the same UTC date and time one year earlier, in seconds', () => {
    expect(twelveMonthsBefore(Date.parse('2026-11-22T10:14:00Z'))).toBe(seconds('2025-11-22T10:14:00Z'));
  });

  it('drops milliseconds', () => {
    expect(twelveMonthsBefore(Date.parse('2026-11-22T10:14:00.999Z'))).toBe(seconds('2025-11-22T10:14:00Z'));
  });

  it('rolls 29 February over to 1 March (deletes a day early, never late)', () => {
    expect(twelveMonthsBefore(Date.parse('2028-02-29T12:00:00Z'))).toBe(seconds('2027-03-01T12:00:00Z'));
  });
});
