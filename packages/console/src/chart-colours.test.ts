import { describe, expect, it } from 'vitest';
import { contrast, KNOWN_MOTIFS, OUTCOME_COLOURS, SPARE_COLOURS } from './chart-colours.js';

describe('the chart colours', () => {
  it('contrast computes WCAG 2.2 ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('every colour has at least 3:1 against the white page (WCAG 2.2 SC 1.4.11)', () => {
    const weak = [...Object.values(OUTCOME_COLOURS), ...SPARE_COLOURS].filter((c) => contrast(c, '#ffffff') < 3);
    expect(weak).toEqual([]);
  });

  it('ok, essai and every known motif have a colour of their own', () => {
    const keys = ['ok', 'essai', ...KNOWN_MOTIFS];
    expect(keys.every((k) => OUTCOME_COLOURS[k] !== undefined)).toBe(true);
    expect(new Set(keys.map((k) => OUTCOME_COLOURS[k])).size).toBe(keys.length);
  });
});
