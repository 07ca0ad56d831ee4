import type { ActivityDay } from './api-types.js';
import { KNOWN_MOTIFS, OUTCOME_COLOURS, SPARE_COLOURS } from './chart-colours.js';

/**
 * The activity chart as numbers (docs/protocol.md#activity): one stacked bar per day, ok at the
 * bottom, then essai, then each refusal motif. Pure, so the component only draws what it gets.
 */

export interface Series {
  /** `ok`, `essai`, or a motif. */
  readonly key: string;
  readonly colour: string;
}

export interface Segment {
  readonly series: string;
  readonly value: number;
  readonly y: number;
  readonly height: number;
}

export interface Bar {
  readonly date: string;
  readonly total: number;
  readonly x: number;
  readonly width: number;
  readonly segments: readonly Segment[];
}

export interface ChartModel {
  readonly series: readonly Series[];
  /** The top of the scale: a round number at or above the largest day; 1 when there is none. */
  readonly max: number;
  readonly ticks: readonly { readonly value: number; readonly y: number }[];
  readonly bars: readonly Bar[];
  /** A few dates under the axis, first and last included: the first set from its left, the last from its right, so none leaves the box. */
  readonly labels: readonly {
    readonly date: string;
    readonly x: number;
    readonly anchor: 'start' | 'middle' | 'end';
  }[];
  /** No verdict in the whole range. */
  readonly empty: boolean;
  readonly plot: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
}

/** ok, essai, then the motifs present: the known ones in their order, then the others by name. */
export function seriesOf(days: readonly ActivityDay[]): Series[] {
  const present = new Set(days.flatMap((day) => Object.keys(day.refusals).filter((m) => (day.refusals[m] ?? 0) > 0)));
  const known = KNOWN_MOTIFS.filter((m) => present.has(m));
  const others = [...present].filter((m) => !KNOWN_MOTIFS.includes(m)).sort();
  const spare = (i: number) => SPARE_COLOURS[i % SPARE_COLOURS.length] ?? '#000000';
  return [
    ...['ok', 'essai', ...known].map((key) => ({ key, colour: OUTCOME_COLOURS[key] ?? '#000000' })),
    ...others.map((key, i) => ({ key, colour: spare(i) })),
  ];
}

/** A day's count for one series. */
export function countOf(day: ActivityDay, series: string): number {
  if (series === 'ok') return day.ok;
  if (series === 'essai') return day.essai;
  return day.refusals[series] ?? 0;
}

/** The scale's step and top: steps of 1, 2 or 5 times a power of ten, about four of them. */
export function niceScale(largest: number): { readonly step: number; readonly max: number } {
  if (largest <= 0) return { step: 1, max: 1 };
  const rough = largest / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  return { step, max: Math.ceil(largest / step) * step };
}

/** Indexes of up to `count` evenly spread labels, first and last included. */
export function labelIndexes(length: number, count: number): number[] {
  if (length === 0) return [];
  if (length <= count) return Array.from({ length }, (_, i) => i);
  const last = length - 1;
  return Array.from({ length: count }, (_, i) => Math.round((i * last) / (count - 1)));
}

const MARGIN = { left: 44, right: 8, top: 8, bottom: 28 };

/** The chart for `days` drawn in a `width` by `height` box (pixels). */
export function chartModel(days: readonly ActivityDay[], width: number, height: number): ChartModel {
  const series = seriesOf(days);
  const totals = days.map((day) => series.reduce((sum, s) => sum + countOf(day, s.key), 0));
  const { step, max } = niceScale(Math.max(0, ...totals));
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top,
    width: Math.max(1, width - MARGIN.left - MARGIN.right),
    height: Math.max(1, height - MARGIN.top - MARGIN.bottom),
  };
  const bottom = plot.top + plot.height;
  const scale = (value: number) => (value / max) * plot.height;
  const slot = days.length === 0 ? plot.width : plot.width / days.length;
  const barWidth = Math.max(1, slot * 0.8);
  const bars = days.map((day, i) => {
    let base = bottom;
    const segments = series
      .map((s) => ({ series: s.key, value: countOf(day, s.key) }))
      .filter((s) => s.value > 0)
      .map((s) => {
        const h = scale(s.value);
        base -= h;
        return { ...s, y: base, height: h };
      });
    return {
      date: day.date,
      total: totals[i] ?? 0,
      x: plot.left + i * slot + (slot - barWidth) / 2,
      width: barWidth,
      segments,
    };
  });
  const ticks = Array.from({ length: max / step + 1 }, (_, i) => ({ value: i * step, y: bottom - scale(i * step) }));
  const last = days.length - 1;
  const labels = labelIndexes(days.length, width < 480 ? 3 : 6).map((i) => {
    const anchor = i === 0 && last > 0 ? 'start' : i === last && last > 0 ? 'end' : 'middle';
    const x = plot.left + i * slot + (anchor === 'start' ? 0 : anchor === 'end' ? slot : slot / 2);
    return { date: days[i]?.date ?? '', x, anchor } as const;
  });
  return { series, max, ticks, bars, labels, empty: totals.every((t) => t === 0), plot };
}

/** Whether any verdict was counted in these days. */
export function hasVerdicts(days: readonly ActivityDay[]): boolean {
  return days.some((day) => day.ok + day.essai + Object.values(day.refusals).reduce((a, b) => a + b, 0) > 0);
}
