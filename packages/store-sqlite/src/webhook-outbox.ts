import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import type { WriteBatcher } from './write-batcher.js';

/** Writes events into the outbox; to be called INSIDE the transaction of the change that causes them. */
export interface WebhookOutbox {
  /**
   * Stores each event whose `dedupe` is not stored yet; answers how many it stored. Its deliveries
   * are made by the next fan-out (webhook-fanout.ts). A taken event id throws (ids are random: a
   * caller's bug), and with it the whole transaction.
   */
  write(events: readonly Store.NewWebhookEvent[]): number;
}

function outboxStatements(db: Database.Database) {
  return {
    // A repeated dedupe inserts nothing; a repeated id still fails (only dedupe is the target).
    insert: db.prepare<[string, string, string, number, string, string | null], { seq: number }>(
      'INSERT INTO webhook_events (id, type, product_id, at, body, dedupe) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (dedupe) DO NOTHING RETURNING seq',
    ),
  };
}

/**
 * The outbox (docs/protocol.md#webhooks): events are written by the very transaction that makes the
 * change causing them (key-writes.ts, bound-domains.ts), so both commit or neither does. Their
 * deliveries are made after, in bulk (webhook-fanout.ts), so that a verdict that binds pays for
 * the event alone.
 */
export function webhookOutbox(db: Database.Database): WebhookOutbox {
  const sql = outboxStatements(db);
  return {
    write(events) {
      let stored = 0;
      for (const event of events) {
        if (sql.insert.get(event.id, event.type, event.produit, event.at, event.body, event.dedupe) !== undefined) {
          stored += 1;
        }
      }
      return stored;
    },
  };
}

/**
 * `verdict.refused`, which no key change causes: the event in one savepoint of the group commit
 * (write-batcher.ts), since a verdict's refusal adds it.
 */
export function webhookEvents(outbox: WebhookOutbox, writes: WriteBatcher): Pick<Store, 'addWebhookEvent'> {
  return {
    async addWebhookEvent(event) {
      return (await writes.write(() => outbox.write([event]))) > 0 ? 'added' : 'duplicate';
    },
  };
}
