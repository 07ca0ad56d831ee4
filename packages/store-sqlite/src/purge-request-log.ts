import type Database from 'better-sqlite3';
import type { Logger, Store } from '@licence/service';
import { utcDay } from '@licence/service';
import type { ActivityDays } from './activity.js';
import { truncateWal } from './wal-truncate.js';

/** Rows the purge deletes per statement (one short write lock each). */
export const PURGE_CHUNK = 5000;

/**
 * docs/protocol.md#privacy: deletes the request-log entries logged before a cut-off, IPs and all.
 * A year-old day of traffic can be millions of rows. One DELETE over all of them would hold the
 * write lock (other processes' bindings wait, then fail past busy_timeout) and this event loop for
 * seconds; chunks of PURGE_CHUNK rows, with a turn of the loop between them, keep every pause
 * short. Each chunk commits on its own: an interrupted purge simply resumes where it stopped the
 * next time.
 *
 * The bytes go too (docs/protocol.md#storage): `secure_delete` (open-database.ts) zeroes what
 * each DELETE frees in the file, and the WAL, which still holds the pages as they were before, is
 * then truncated (wal-truncate.ts). That runs after every purge, deletions or not, so a WAL that
 * another process kept from truncating once is truncated the next day.
 *
 * The per-day activity counts of the days that ended before the cut go too (ports.ts,
 * docs/protocol.md#activity): they summarise the log. The day the cut falls in keeps its counts
 * whole until the next purge.
 */
export function requestLogPurge(
  db: Database.Database,
  days: ActivityDays,
  file: string,
  logger: Logger | undefined,
): Pick<Store, 'purgeRequestLog'> {
  // The subquery walks the index request_log_at (migration step 2).
  const purge = db.prepare<[number, number]>(
    'DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE at < ? LIMIT ?)',
  );
  return {
    async purgeRequestLog(before) {
      let deleted = 0;
      for (;;) {
        const changes = purge.run(before, PURGE_CHUNK).changes;
        deleted += changes;
        if (changes < PURGE_CHUNK) {
          break;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      days.purgeBefore(utcDay(before));
      truncateWal(db, file, logger);
      return deleted;
    },
  };
}
