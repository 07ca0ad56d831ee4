import type Database from 'better-sqlite3';
import { webhookDeliveryId } from '@licence/service';

/** The SQL function the fan-out names each delivery with (webhookDeliveryId, like every store). */
const DELIVERY_ID_FUNCTION = 'licence_webhook_delivery_id';

/**
 * Makes the deliveries of every event written since the last fan-out: one pending delivery, due at
 * the event's time, per endpoint that receives it (ports.ts NewWebhookEvent: subscribed to its type,
 * and its product's author's or every author's). To be called INSIDE an IMMEDIATE transaction, before
 * anything reads or adds deliveries or endpoints (docs/protocol.md#delivery-on-the-koa-server).
 * With `maxEvents`, only the oldest that many events are fanned out (a slice); true when more remain.
 */
export type WebhookFanout = (maxEvents?: number) => boolean;

/**
 * The events are written by the change that causes them (webhook-outbox.ts), so none is lost nor
 * sent for a change that did not commit; their deliveries are made here, for all of them at once.
 * Made in the change's own transaction, each delivery row dirtied the tail pages of its table and
 * four indexes in every group commit of verdicts, which measured about 8% of a verdict's CPU time
 * with an endpoint when one verdict in three binds (apps/koa-server/README.md, bench:webhooks).
 *
 * Exactly once per event and endpoint: SQLite has one writer at a time, so when a fan-out runs every
 * event up to the newest seq has committed, and the cursor moves to that seq in the same
 * transaction. An endpoint added later never receives an earlier event: its creation fans out first
 * (webhook-endpoints.ts). `OR IGNORE` leaves a delivery a build before this one made in the event's
 * transaction (several processes on one file during an upgrade).
 */
export function webhookFanout(db: Database.Database): WebhookFanout {
  db.function(DELIVERY_ID_FUNCTION, { deterministic: true }, (eventId, endpointId) =>
    webhookDeliveryId(String(eventId), String(endpointId)),
  );
  const cursor = db.prepare<[], { seq: number }>('SELECT seq FROM webhook_fanout WHERE id = 1');
  const fanOut = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at) ' +
      `SELECT ${DELIVERY_ID_FUNCTION}(e.id, w.id), w.id, e.seq, 'pending', e.at ` +
      'FROM webhook_events e JOIN webhook_endpoints w ' +
      'ON EXISTS (SELECT 1 FROM json_each(w.events) WHERE json_each.value = e.type) ' +
      'AND (w.author IS NULL OR w.author = (SELECT author FROM products WHERE id = e.product_id)) ' +
      'WHERE e.seq > ? AND e.seq <= ? ORDER BY e.seq, w.id',
  );
  const newest = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM webhook_events');
  const move = db.prepare<[number]>('UPDATE webhook_fanout SET seq = ? WHERE id = 1');
  return (maxEvents = Number.POSITIVE_INFINITY) => {
    const from = cursor.get()?.seq ?? 0;
    const last = newest.get()?.seq ?? null;
    if (last === null || last <= from) {
      return false;
    }
    // seq grows by one per event (gaps only where a duplicate was dropped): at most maxEvents events.
    const to = Math.min(last, from + maxEvents);
    fanOut.run(from, to);
    move.run(to);
    return to < last;
  };
}
