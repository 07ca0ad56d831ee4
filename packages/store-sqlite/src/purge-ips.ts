import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';

/** Rows the purge erases per statement (one short write lock each). */
export const PURGE_CHUNK = 5000;

/**
 * docs/protocol.md#privacy: erases the client IPs logged before a cut-off. A year-old day of
 * traffic can be millions of rows. One UPDATE over all of them would hold the write lock (other
 * processes' bindings wait, then fail past busy_timeout) and this event loop for seconds; chunks of
 * PURGE_CHUNK rows, with a turn of the loop between them, keep every pause short. Each chunk
 * commits on its own: an interrupted purge simply resumes where it stopped the next time.
 */
export function ipPurge(db: Database.Database): Pick<Store, 'purgeIps'> {
  // The subquery walks the partial index request_log_ip_at.
  const purge = db.prepare<[number, number]>(
    'UPDATE request_log SET ip = NULL WHERE id IN ' +
      '(SELECT id FROM request_log WHERE at < ? AND ip IS NOT NULL LIMIT ?)',
  );
  return {
    async purgeIps(before) {
      let erased = 0;
      for (;;) {
        const changes = purge.run(before, PURGE_CHUNK).changes;
        erased += changes;
        if (changes < PURGE_CHUNK) {
          return erased;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
  };
}
