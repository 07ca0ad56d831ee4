import { useId } from 'preact/hooks';
import type { ActivityDay } from '../api-types.js';
import { countOf, seriesOf } from '../chart-model.js';
import { formatDay } from '../dates.js';
import { outcomeLabel } from '../i18n/translate.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

/** The chart's numbers as a table: a row per day, a column per outcome, and the day's total. */
export function ActivityTable({ days, caption }: { readonly days: readonly ActivityDay[]; readonly caption: string }) {
  const { t, lang } = useApp();
  const captionId = useId();
  const series = seriesOf(days);
  return (
    <TableWrap captionId={captionId} tall>
      <table class="activity-table">
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('activity.day')}</th>
            {series.map((s) => (
              <th key={s.key} scope="col" class="number">
                {outcomeLabel(s.key, t)}
              </th>
            ))}
            <th scope="col" class="number">
              {t('activity.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{formatDay(day.date, lang)}</th>
              {series.map((s) => (
                <td key={s.key} class="number">
                  {countOf(day, s.key)}
                </td>
              ))}
              <td class="number">{series.reduce((sum, s) => sum + countOf(day, s.key), 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
