import type Database from 'better-sqlite3';
import type { WebhookFanout } from './webhook-fanout.js';
import type { Store } from '@licence/service';
import { DELIVERY_COLUMNS, toDeliveryRecord } from './webhook-rows.js';
import type { AttemptRow, DeliveryRow } from './webhook-rows.js';

const FROM_DELIVERIES = 'FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq';

function deliveryStatements(db: Database.Database) {
  return {
    // Newest event first: walks the index of UNIQUE (endpoint_id, event_seq) backwards.
    ofEndpoint: db.prepare<[string, number], DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} ${FROM_DELIVERIES} WHERE d.endpoint_id = ? ORDER BY d.event_seq DESC LIMIT ?`,
    ),
    byId: db.prepare<[string, string], DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} ${FROM_DELIVERIES} WHERE d.id = ? AND d.endpoint_id = ?`,
    ),
    attempts: db.prepare<[string], AttemptRow>(
      'SELECT at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY number',
    ),
    // The claim, if one holds it, is left alone: an attempt in flight finishes and ends it.
    retry: db.prepare<[number, string, string]>(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id = ? AND endpoint_id = ?",
    ),
    count: db.prepare<[string], { attempts: number }>('SELECT attempts FROM webhook_deliveries WHERE id = ?'),
    insertAttempt: db.prepare<[string, number, number, number | null, string | null, number]>(
      'INSERT INTO webhook_attempts (delivery_id, number, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    finish: db.prepare<[number, string, number | null, string]>(
      'UPDATE webhook_deliveries SET attempts = ?, status = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ?',
    ),
  };
}

/**
 * A delivery's life after its fan-out (docs/protocol.md#webhooks): its log (the admin API), a manual
 * retry, and the end of each attempt the deliverer made. Claiming is webhook-claim.ts.
 */
export function webhookDeliveries(
  db: Database.Database,
  fanOut: WebhookFanout,
): Pick<Store, 'listWebhookDeliveries' | 'retryWebhookDelivery' | 'finishWebhookAttempt'> {
  const sql = deliveryStatements(db);

  const withAttempts = (row: DeliveryRow): Store.WebhookDeliveryRecord =>
    toDeliveryRecord(row, sql.attempts.all(row.id));

  // One transaction: the events written since the last fan-out get their deliveries first
  // (webhook-fanout.ts), then the deliveries and their attempts are read from one snapshot.
  const list = db.transaction((endpointId: string, limit: number) => {
    fanOut();
    return sql.ofEndpoint.all(endpointId, limit).map(withAttempts);
  });

  const retry = db.transaction((endpointId: string, deliveryId: string, now: number) => {
    fanOut();
    if (sql.retry.run(now, deliveryId, endpointId).changes === 0) {
      return null;
    }
    const row = sql.byId.get(deliveryId, endpointId);
    return row === undefined ? null : withAttempts(row);
  });

  const finish = db.transaction(
    (deliveryId: string, attempt: Store.WebhookAttemptRecord, outcome: Store.WebhookAttemptOutcome): void => {
      const before = sql.count.get(deliveryId);
      if (before === undefined) {
        // Deleted meanwhile (its endpoint was): nothing to record.
        return;
      }
      const number = before.attempts + 1;
      sql.insertAttempt.run(deliveryId, number, attempt.at, attempt.status, attempt.error, attempt.durationMs);
      const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
      sql.finish.run(number, outcome.status, next, deliveryId);
    },
  );

  return {
    async listWebhookDeliveries(endpointId, limit) {
      // SQLite reads a negative LIMIT as none.
      return list.immediate(endpointId, Math.max(0, limit));
    },
    async retryWebhookDelivery(endpointId, deliveryId, now) {
      return retry.immediate(endpointId, deliveryId, now);
    },
    async finishWebhookAttempt(deliveryId, attempt, outcome) {
      finish.immediate(deliveryId, attempt, outcome);
    },
  };
}
