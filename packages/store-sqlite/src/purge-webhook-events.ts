import type Database from 'better-sqlite3';
import type { Logger, Store } from '@licence/service';
import { truncateWal } from './wal-truncate.js';
import type { WebhookFanout } from './webhook-fanout.js';

/**
 * Events the purge deletes per statement. Each takes its deliveries and their attempts with it
 * (ON DELETE CASCADE): up to a few dozen rows per event, so fewer events per step than the request
 * log's PURGE_CHUNK rows, for pauses as short.
 */
export const WEBHOOK_PURGE_CHUNK = 500;

/**
 * docs/protocol.md#webhooks: events and their deliveries are kept 30 days. An event older than the
 * cut goes with its deliveries and attempts, unless one of its deliveries is still pending (the
 * retries of a manual retry may outlive the 30 days; the next purge takes it). A body may hold a
 * new key (`data.cle`), so the bytes go too, as for the request log (purge-request-log.ts,
 * docs/protocol.md#storage): `secure_delete` zeroes what each DELETE frees, and the WAL is
 * truncated after every purge, deletions or not. In short steps with a turn of the event loop between them, each committed on
 * its own: an interrupted purge resumes the next time.
 */
export function webhookEventPurge(
  db: Database.Database,
  file: string,
  logger: Logger | undefined,
  fanOut: WebhookFanout,
): Pick<Store, 'purgeWebhookEvents'> {
  // An event not fanned out yet has no pending delivery to keep it: fan out first.
  const fanOutNow = db.transaction(fanOut);
  // Walks webhook_events_at, and webhook_deliveries_event for the pending check.
  const purge = db.prepare<[number, number]>(
    'DELETE FROM webhook_events WHERE seq IN (SELECT e.seq FROM webhook_events e WHERE e.at < ? ' +
      "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq AND d.status = 'pending') " +
      'LIMIT ?)',
  );
  return {
    async purgeWebhookEvents(before) {
      fanOutNow.immediate();
      let deleted = 0;
      for (;;) {
        const changes = purge.run(before, WEBHOOK_PURGE_CHUNK).changes;
        deleted += changes;
        if (changes < WEBHOOK_PURGE_CHUNK) {
          break;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      truncateWal(db, file, logger);
      return deleted;
    },
  };
}
