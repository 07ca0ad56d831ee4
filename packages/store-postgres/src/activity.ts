import { storedColumn } from '@licence/service';
import type { Store } from '@licence/service';
import type { Query } from './query.js';

/** `count` is int8, so pg hands it over as a decimal string. */
interface ActivityRow {
  readonly day: number;
  readonly outcome: string;
  readonly count: string;
}

/**
 * A count as the row holds it: an outcome other than the port's is refused (storedOutcome of
 * @licence/service: a database edited by hand or by a newer build, docs/protocol.md#errors).
 */
function toActivityCount(productId: string, row: ActivityRow): Store.ActivityCount {
  const outcome = storedColumn.outcome(`activity_days.outcome of product ${productId}`, row.outcome);
  const count = Number(row.count);
  if (!Number.isSafeInteger(count)) {
    throw new TypeError(`activity_days.count of product ${productId}: expected a whole number, got ${row.count}`);
  }
  return { day: row.day, outcome, count };
}

/**
 * A product's verdicts per UTC day and outcome (docs/protocol.md#activity), read from the counts
 * logRequest keeps (request-log.ts), never from the log: a range of the primary key, a year of a
 * product at most 366 days times the outcomes seen.
 */
export function activityCounts(query: Query): Pick<Store, 'activity'> {
  return {
    async activity(productId, fromDay, toDay) {
      const rows = await query<ActivityRow>(
        {
          name: 'licence_activity',
          text: 'SELECT day, outcome, count FROM activity_days WHERE product_id = $1 AND day BETWEEN $2 AND $3',
        },
        [productId, fromDay, toDay],
      );
      return rows.map((row) => toActivityCount(productId, row));
    },
  };
}
