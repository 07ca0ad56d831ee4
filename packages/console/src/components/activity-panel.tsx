import { useId, useState } from 'preact/hooks';
import { hasVerdicts } from '../chart-model.js';
import { ActivityChart } from './activity-chart.js';
import { ActivityTable } from './activity-table.js';
import { useApp } from './app-context.js';
import { useLoad } from './use-load.js';

const PERIODS = [30, 90] as const;

/**
 * A product's verdicts per day over 30 or 90 days (docs/protocol.md#activity): chart, legend and
 * table. It loads again when `version` changes (a key was issued on the page), keeping the period.
 */
export function ActivityPanel({ id, version }: { readonly id: string; readonly version: number }) {
  const { t, api } = useApp();
  const headingId = useId();
  const [days, setDays] = useState<(typeof PERIODS)[number]>(30);
  const load = useLoad(() => api.activity(id, days), [api, id, days, version]);
  const activity = load.data;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('activity.title')}</h2>
      <fieldset class="toggle">
        <legend>{t('activity.period')}</legend>
        {PERIODS.map((n) => (
          <button key={n} type="button" aria-pressed={days === n} onClick={() => setDays(n)}>
            {t('activity.days', { days: n })}
          </button>
        ))}
      </fieldset>
      {activity === null ? null : (
        <>
          {hasVerdicts(activity.days) ? null : <p>{t('activity.empty')}</p>}
          {/* Titled by the days shown, not the period pressed: while 90 days load, the 30 shown are
              still called 30 (and a test waiting for the 90-day caption waits for the data). */}
          <ActivityChart days={activity.days} title={t('activity.chartTitle', { days: activity.days.length, id })} />
          <ActivityTable days={activity.days} caption={t('activity.caption', { days: activity.days.length, id })} />
        </>
      )}
    </section>
  );
}
