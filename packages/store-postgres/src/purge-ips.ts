import type pg from 'pg';
import type { Store } from '@licence/service';

/** Rows the purge erases per statement (one short transaction each). */
export const PURGE_CHUNK = 5000;

/**
 * docs/protocol.md#privacy: erases the client IPs logged before a cut-off. A year-old day of
 * traffic can be millions of rows: chunks of PURGE_CHUNK rows, each its own short statement, keep
 * every one far below statement_timeout and hold few row locks at a time; an interrupted purge
 * resumes where it stopped the next time. SKIP LOCKED lets two processes purging at once share the
 * work instead of queueing, and `ip IS NOT NULL` in the outer WHERE is re-checked on the locked
 * row, so nothing is counted twice.
 */
export function ipPurge(pool: pg.Pool): Pick<Store, 'purgeIps'> {
  return {
    async purgeIps(before) {
      let erased = 0;
      for (;;) {
        const result = await pool.query(
          'UPDATE request_log SET ip = NULL WHERE ip IS NOT NULL AND id IN ' +
            '(SELECT id FROM request_log WHERE at < $1 AND ip IS NOT NULL LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [before, PURGE_CHUNK],
        );
        const changes = result.rowCount ?? 0;
        erased += changes;
        if (changes < PURGE_CHUNK) {
          return erased;
        }
      }
    },
  };
}
