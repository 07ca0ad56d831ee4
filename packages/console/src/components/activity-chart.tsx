import { useId, useMemo, useRef } from 'preact/hooks';
import type { ActivityDay } from '../api-types.js';
import { type ChartModel, chartModel } from '../chart-model.js';
import { formatDay } from '../dates.js';
import { outcomeLabel } from '../i18n/translate.js';
import { useApp } from './app-context.js';
import { useWidth } from './use-width.js';

const HEIGHT = 240;

function Axes({ model }: { readonly model: ChartModel }) {
  const { lang } = useApp();
  const { plot } = model;
  const bottom = plot.top + plot.height;
  return (
    <g class="axes">
      {model.ticks.map((tick) => (
        <g key={tick.value}>
          <line x1={plot.left} x2={plot.left + plot.width} y1={tick.y} y2={tick.y} class="grid" />
          <text x={plot.left - 6} y={tick.y} text-anchor="end" dominant-baseline="middle">
            {tick.value}
          </text>
        </g>
      ))}
      {model.labels.map((label) => (
        <text key={label.date} x={label.x} y={bottom + 18} text-anchor={label.anchor}>
          {formatDay(label.date, lang, true)}
        </text>
      ))}
    </g>
  );
}

function Bars({ model }: { readonly model: ChartModel }) {
  const colours = new Map(model.series.map((s) => [s.key, s.colour]));
  return (
    <g class="bars">
      {model.bars.map((bar) => (
        <g key={bar.date} class={bar.width > 4 ? 'gap' : undefined}>
          {bar.segments.map((s) => (
            <rect key={s.series} x={bar.x} y={s.y} width={bar.width} height={s.height} fill={colours.get(s.series)} />
          ))}
        </g>
      ))}
    </g>
  );
}

/** The legend, under the chart: a swatch and the outcome's name, so colour is never the only cue. */
function Legend({ model }: { readonly model: ChartModel }) {
  const { t } = useApp();
  return (
    <ul class="legend">
      {model.series.map((s) => (
        <li key={s.key}>
          <svg width="14" height="14" aria-hidden="true" focusable="false">
            <rect width="14" height="14" fill={s.colour} />
          </svg>
          {outcomeLabel(s.key, t)}
        </li>
      ))}
    </ul>
  );
}

/**
 * Verdicts per day as stacked bars (docs/protocol.md#activity), drawn at the width it is given so
 * its text stays readable on a phone. One image to a screen reader, named; the table beside it
 * holds the same numbers.
 */
export function ActivityChart({ days, title }: { readonly days: readonly ActivityDay[]; readonly title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, 640);
  const model = useMemo(() => chartModel(days, width, HEIGHT), [days, width]);
  const titleId = useId();
  return (
    <figure class="chart">
      <div ref={box} class="chart-box">
        <svg width={width} height={HEIGHT} role="img" aria-labelledby={titleId}>
          <title id={titleId}>{title}</title>
          <Axes model={model} />
          <Bars model={model} />
        </svg>
      </div>
      <figcaption>
        <Legend model={model} />
      </figcaption>
    </figure>
  );
}
