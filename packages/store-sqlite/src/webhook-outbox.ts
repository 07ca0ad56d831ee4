import type Database from 'better-sqlite3';
import { webhookDeliveryId } from '@licence/service';
import type { NewWebhookEvent, Store } from '@licence/service';
import type { WriteBatcher } from './write-batcher.js';

/** Writes events into the outbox; to be called INSIDE the transaction of the change that causes them. */
export interface WebhookOutbox {
  /**
   * Stores each event whose `dedupe` is not stored yet, with one pending delivery, due at the
   * event's time, per endpoint that receives it; answers how many events it stored. A taken event
   * id throws (ids are random: a caller's bug), and with it the whole transaction.
   */
  write(events: readonly NewWebhookEvent[]): number;
}

function outboxStatements(db: Database.Database) {
  return {
    // A repeated dedupe inserts nothing; a repeated id still fails (only dedupe is the target).
    insert: db.prepare<[string, string, string, number, string, string | null], { seq: number }>(
      'INSERT INTO webhook_events (id, type, product_id, at, body, dedupe) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (dedupe) DO NOTHING RETURNING seq',
    ),
    // ports.ts NewWebhookEvent: subscribed to the type, and the product's author's or every author's.
    receivers: db.prepare<[string, string], { id: string }>(
      'SELECT w.id FROM webhook_endpoints w ' +
        'WHERE EXISTS (SELECT 1 FROM json_each(w.events) WHERE json_each.value = ?) ' +
        'AND (w.author IS NULL OR w.author = (SELECT author FROM products WHERE id = ?)) ORDER BY w.id',
    ),
    delivery: db.prepare<[string, string, number, number]>(
      "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at) VALUES (?, ?, ?, 'pending', ?)",
    ),
  };
}

/**
 * The outbox (docs/protocol.md#webhooks): events are written by the very transaction that makes the
 * change causing them (key-writes.ts, bound-domains.ts), so both commit or neither does, and are
 * fanned out there into their deliveries, named by webhookDeliveryId like every store names them.
 * Endpoints made later never receive an earlier event.
 */
export function webhookOutbox(db: Database.Database): WebhookOutbox {
  const sql = outboxStatements(db);
  return {
    write(events) {
      let stored = 0;
      for (const event of events) {
        const row = sql.insert.get(event.id, event.type, event.produit, event.at, event.body, event.dedupe);
        if (row === undefined) {
          continue;
        }
        stored += 1;
        for (const endpoint of sql.receivers.all(event.type, event.produit)) {
          sql.delivery.run(webhookDeliveryId(event.id, endpoint.id), endpoint.id, row.seq, event.at);
        }
      }
      return stored;
    },
  };
}

/**
 * `verdict.refused`, which no key change causes: the event and its deliveries in one savepoint of
 * the group commit (write-batcher.ts), since a verdict's refusal adds it.
 */
export function webhookEvents(outbox: WebhookOutbox, writes: WriteBatcher): Pick<Store, 'addWebhookEvent'> {
  return {
    async addWebhookEvent(event) {
      return (await writes.write(() => outbox.write([event]))) > 0 ? 'added' : 'duplicate';
    },
  };
}
