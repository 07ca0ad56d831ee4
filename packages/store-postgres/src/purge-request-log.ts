import type pg from 'pg';
import type { Store } from '@licence/service';
import { utcDay } from '@licence/service';

/** Rows the purge deletes per statement (one short transaction each). */
export const PURGE_CHUNK = 5000;

/**
 * One chunk. `ORDER BY at` makes the planner walk the index request_log_at (migration step 3)
 * from the oldest entry: without it, when the entries past the cut-off are many (a heavy day, a
 * purge that had not run for a while), it chose a sequential scan that stops after LIMIT matches,
 * which only finds them quickly if they sit first in the table. They need not: vacuum lets new
 * rows fill the space the purge freed, and rows logged late sit last. Measured with bench/growth.mjs
 * (apps/koa-server): a day of 1,000,000 entries logged after 10,000,000 others, each chunk read the
 * whole table and passed the pool's 2 s statement timeout, and the purge failed.
 */
export const DELETE_CHUNK =
  'DELETE FROM request_log WHERE id IN ' +
  '(SELECT id FROM request_log WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)';

/**
 * The rate limit's rows (migration step 2) name client addresses too. The limiter's sweep deletes
 * a row once its newest hit has left the window, a minute or two under traffic
 * (rate-limit-sweep.ts); but the sweep runs only when a request comes. This backstop makes the
 * retention hold even for a database that no longer receives any: no row whose newest hit is older
 * than the purge's cut-off (seconds; the hits are milliseconds) is kept.
 */
const DELETE_IDLE_WINDOWS = 'DELETE FROM rate_limit_windows WHERE hits[cardinality(hits)] < $1::bigint * 1000';

/**
 * The activity counts of the days that ended before the cut-off (docs/protocol.md#activity): they
 * summarise the log, so they go with it. Rows are locked in key order, as logRequest's upsert
 * locks them, so a late log line of an old day and the purge queue instead of deadlocking. A few
 * rows per product a day: one statement.
 */
const DELETE_OLD_DAYS = `
  DELETE FROM activity_days WHERE (product_id, day, outcome) IN (
    SELECT product_id, day, outcome FROM activity_days WHERE day < $1
     ORDER BY product_id, day, outcome FOR UPDATE)`;

/**
 * docs/protocol.md#privacy: deletes the request-log entries logged before a cut-off, IPs and all.
 * A year-old day of traffic can be millions of rows: chunks of PURGE_CHUNK rows, each its own
 * short statement, keep every one far below statement_timeout and hold few row locks at a time; an
 * interrupted purge resumes where it stopped the next time. SKIP LOCKED lets two processes purging
 * at once share the work instead of queueing; a row is deleted once, so counted once.
 *
 * docs/protocol.md#storage: the deleted rows' bytes stay in the table's pages as dead tuples until
 * autovacuum marks their space free, and until later rows overwrite it; the purge runs no VACUUM
 * FULL, which would lock the table for the whole rewrite.
 */
export function requestLogPurge(pool: pg.Pool): Pick<Store, 'purgeRequestLog'> {
  return {
    async purgeRequestLog(before) {
      let deleted = 0;
      for (;;) {
        const changes = (await pool.query(DELETE_CHUNK, [before, PURGE_CHUNK])).rowCount ?? 0;
        deleted += changes;
        if (changes < PURGE_CHUNK) {
          break;
        }
      }
      await pool.query(DELETE_OLD_DAYS, [utcDay(before)]);
      await pool.query(DELETE_IDLE_WINDOWS, [before]);
      return deleted;
    },
  };
}
