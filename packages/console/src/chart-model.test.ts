import { describe, expect, it } from 'vitest';
import type { ActivityDay } from './api-types.js';
import { OUTCOME_COLOURS, SPARE_COLOURS } from './chart-colours.js';
import { chartModel, countOf, hasVerdicts, labelIndexes, niceScale, seriesOf } from './chart-model.js';

function day(date: string, ok: number, essai: number, refusals: Record<string, number> = {}): ActivityDay {
  return { date, ok, essai, refusals };
}

const DAYS = [
  day('2026-03-01', 3, 1, { inconnue: 2 }),
  day('2026-03-02', 0, 0),
  day('2026-03-03', 10, 2, { revocation: 1, autre_domaine: 4, suspendue: 3 }),
];

describe('seriesOf', () => {
  it('is ok, essai, the known motifs present in their order, then the unknown ones by name', () => {
    expect(seriesOf(DAYS).map((s) => s.key)).toEqual([
      'ok',
      'essai',
      'autre_domaine',
      'inconnue',
      'revocation',
      'suspendue',
    ]);
  });

  it('gives each known outcome its colour, and an unknown motif a spare one', () => {
    const colours = Object.fromEntries(seriesOf(DAYS).map((s) => [s.key, s.colour]));
    expect(colours.ok).toBe(OUTCOME_COLOURS.ok);
    expect(colours.revocation).toBe(OUTCOME_COLOURS.revocation);
    expect(colours.suspendue).toBe(SPARE_COLOURS[0]);
  });

  it('leaves out a motif counted zero', () => {
    expect(seriesOf([day('2026-03-01', 1, 0, { expiree: 0 })]).map((s) => s.key)).toEqual(['ok', 'essai']);
  });
});

describe('niceScale', () => {
  it('rounds the largest day up to a step of 1, 2 or 5 times a power of ten', () => {
    expect(niceScale(22)).toEqual({ step: 10, max: 30 });
    expect(niceScale(7)).toEqual({ step: 2, max: 8 });
    expect(niceScale(10_000)).toEqual({ step: 5000, max: 10_000 });
    expect(niceScale(3)).toEqual({ step: 1, max: 3 });
  });

  it('is 1 for no data, never 0 (the heights divide by it)', () => {
    expect(niceScale(0)).toEqual({ step: 1, max: 1 });
  });
});

describe('chartModel', () => {
  const model = chartModel(DAYS, 644, 240);
  const bottom = model.plot.top + model.plot.height;

  it('stacks each day: segments from the bottom up, heights in proportion, touching', () => {
    const bar = model.bars[2];
    expect(bar?.total).toBe(20);
    expect(bar?.segments.map((s) => s.series)).toEqual(['ok', 'essai', 'autre_domaine', 'revocation', 'suspendue']);
    const first = bar?.segments[0];
    expect(first?.y).toBeCloseTo(bottom - (10 / 20) * model.plot.height);
    expect(first?.height).toBeCloseTo((10 / 20) * model.plot.height);
    for (const [i, s] of (bar?.segments ?? []).entries()) {
      const below = bar?.segments[i - 1];
      expect(s.y + s.height).toBeCloseTo(below === undefined ? bottom : below.y);
    }
  });

  it('scales to a round max at or above the largest total, with ticks from 0 to it', () => {
    expect(model.max).toBe(20);
    expect(model.ticks.map((t) => t.value)).toEqual([0, 5, 10, 15, 20]);
    expect(model.ticks[0]?.y).toBe(bottom);
    expect(model.ticks[4]?.y).toBeCloseTo(model.plot.top);
    expect(chartModel([day('2026-03-01', 22, 0)], 400, 200).max).toBe(30);
  });

  it('a day whose total is the max reaches the top', () => {
    const full = chartModel([day('2026-03-01', 20, 0), day('2026-03-02', 5, 5)], 400, 200);
    const segments = full.bars[0]?.segments ?? [];
    expect(segments.at(-1)?.y).toBeCloseTo(full.plot.top);
  });

  it('a day without verdicts has no segment, and the bars share the width in order', () => {
    expect(model.bars[1]?.segments).toEqual([]);
    const xs = model.bars.map((b) => b.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect((model.bars[2]?.x ?? 0) + (model.bars[2]?.width ?? 0)).toBeLessThanOrEqual(
      model.plot.left + model.plot.width,
    );
  });

  it('empty data: no bar, a scale of 1, flagged empty', () => {
    const none = chartModel([], 400, 200);
    expect(none.bars).toEqual([]);
    expect(none.labels).toEqual([]);
    expect(none.max).toBe(1);
    expect(none.empty).toBe(true);
    const quiet = chartModel([day('2026-03-01', 0, 0), day('2026-03-02', 0, 0)], 400, 200);
    expect(quiet.empty).toBe(true);
    expect(quiet.bars.every((b) => b.segments.length === 0)).toBe(true);
    expect(model.empty).toBe(false);
  });

  it('labels a few dates, first and last included, fewer on a narrow chart', () => {
    const ninety = Array.from({ length: 90 }, (_, i) => day(`d${i}`, 1, 0));
    expect(chartModel(ninety, 800, 240).labels.map((l) => l.date)).toEqual(['d0', 'd18', 'd36', 'd53', 'd71', 'd89']);
    expect(chartModel(ninety, 320, 240).labels.map((l) => l.date)).toEqual(['d0', 'd45', 'd89']);
  });
});

describe('labelIndexes, countOf, hasVerdicts', () => {
  it('labelIndexes: every index when they fit', () => {
    expect(labelIndexes(3, 6)).toEqual([0, 1, 2]);
    expect(labelIndexes(0, 6)).toEqual([]);
  });

  it('countOf reads ok, essai and a motif, 0 for a motif absent', () => {
    const d = day('x', 1, 2, { expiree: 3 });
    expect([countOf(d, 'ok'), countOf(d, 'essai'), countOf(d, 'expiree'), countOf(d, 'inconnue')]).toEqual([
      1, 2, 3, 0,
    ]);
  });

  it('hasVerdicts counts refusals too', () => {
    expect(hasVerdicts([day('x', 0, 0, { inconnue: 1 })])).toBe(true);
    expect(hasVerdicts([day('x', 0, 0, { inconnue: 0 })])).toBe(false);
    expect(hasVerdicts([])).toBe(false);
  });
});

describe('the axis labels', () => {
  it('the first is anchored at its left, the last at its right, the others in the middle', () => {
    const days = Array.from({ length: 30 }, (_, i) => day(`d${i}`, 1, 0));
    const model = chartModel(days, 644, 240);
    expect(model.labels.map((l) => l.anchor)).toEqual(['start', 'middle', 'middle', 'middle', 'middle', 'end']);
    expect(model.labels[0]?.x).toBe(model.plot.left);
    expect(model.labels.at(-1)?.x).toBeCloseTo(model.plot.left + model.plot.width);
  });

  it('a single day is labelled in its middle', () => {
    expect(chartModel([day('d0', 1, 0)], 400, 200).labels.map((l) => l.anchor)).toEqual(['middle']);
  });
});
