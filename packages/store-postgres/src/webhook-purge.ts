import type pg from 'pg';
import type { Store } from '@licence/service';

/**
 * Events the purge deletes per statement. Each takes its deliveries (one per endpoint) and their
 * attempts (up to eleven each) with it, so a chunk is far smaller than the request log's.
 */
export const WEBHOOK_PURGE_CHUNK = 500;

/**
 * Old events without a pending delivery; their deliveries and attempts go with them (ON DELETE
 * CASCADE). SKIP LOCKED lets two processes purging at once share the work: an event is deleted
 * once, so counted once.
 */
const DELETE_CHUNK = `
  DELETE FROM webhook_events WHERE seq IN (
    SELECT e.seq FROM webhook_events e
     WHERE e.at < $1
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq AND d.status = 'pending')
     LIMIT $2 FOR UPDATE SKIP LOCKED)`;

/**
 * docs/protocol.md#webhooks: events and deliveries are kept 30 days (a body may hold a new key, in
 * `data.cle`). Short statements of WEBHOOK_PURGE_CHUNK events, as the request log's purge
 * (purge-request-log.ts): none holds locks for long, and an interrupted purge resumes next time. A
 * pending delivery keeps its event until it is delivered or failed.
 */
export function webhookPurge(pool: pg.Pool): Pick<Store, 'purgeWebhookEvents'> {
  return {
    async purgeWebhookEvents(before) {
      let deleted = 0;
      for (;;) {
        const changes = (await pool.query(DELETE_CHUNK, [before, WEBHOOK_PURGE_CHUNK])).rowCount ?? 0;
        deleted += changes;
        if (changes < WEBHOOK_PURGE_CHUNK) break;
      }
      return deleted;
    },
  };
}
