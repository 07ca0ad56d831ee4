import type Database from 'better-sqlite3';
import { storedColumn, utcDay } from '@licence/service';
import type { Store } from '@licence/service';

interface ActivityRow {
  readonly day: number;
  readonly outcome: string;
  readonly count: number;
}

/** The statements on `activity_days` (migration step 3), prepared once. */
export interface ActivityDays {
  /**
   * Adds one to the count of the entry's product, UTC day and outcome; a verdict with no product
   * counts nowhere. Called inside the write that logs the line (request-log.ts), so both commit
   * or neither does.
   */
  readonly count: (entry: Store.RequestLogEntry) => void;
  /** Deletes the counts of the days before `firstKeptDay` (the purge, purge-request-log.ts). */
  readonly purgeBefore: (firstKeptDay: number) => number;
}

export function activityDays(db: Database.Database): ActivityDays {
  const upsert = db.prepare<[string, number, string]>(
    'INSERT INTO activity_days (product_id, day, outcome, count) VALUES (?, ?, ?, 1) ' +
      'ON CONFLICT (product_id, day, outcome) DO UPDATE SET count = count + 1',
  );
  // A day's rows are a few per product, and the purge runs daily: one statement, no chunks.
  const purge = db.prepare<[number]>('DELETE FROM activity_days WHERE day < ?');
  return {
    count(entry) {
      if (entry.produit !== null) upsert.run(entry.produit, utcDay(entry.at), entry.outcome);
    },
    purgeBefore: (firstKeptDay) => purge.run(firstKeptDay).changes,
  };
}

/**
 * A product's activity (docs/protocol.md#activity): a range of its primary key, so a year is at
 * most 366 x (outcomes) rows whatever the traffic, never a scan of the request log.
 */
export function activityReads(db: Database.Database): Pick<Store, 'activity'> {
  const range = db.prepare<[string, number, number], ActivityRow>(
    'SELECT day, outcome, count FROM activity_days WHERE product_id = ? AND day BETWEEN ? AND ?',
  );
  return {
    async activity(productId, fromDay, toDay) {
      return range.all(productId, fromDay, toDay).map(
        (row): Store.ActivityCount => ({
          day: row.day,
          outcome: storedColumn.outcome('activity_days.outcome', row.outcome),
          count: row.count,
        }),
      );
    },
  };
}
