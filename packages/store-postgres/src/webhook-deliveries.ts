import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { DELIVERY_COLUMNS, toDeliveryRecord } from './webhook-rows.js';
import type { DeliveryRow } from './webhook-rows.js';

/** The endpoint's newest deliveries, by event, with their attempts: a range of one index. */
const LIST = `
  SELECT ${DELIVERY_COLUMNS}
    FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq
   WHERE d.endpoint_id = $1
   ORDER BY d.event_seq DESC
   LIMIT $2`;

/**
 * A manual retry, answered as it is then, in one statement. Its lease is kept: an attempt in flight
 * ends it, so a retry never lets a second deliverer take the endpoint meanwhile.
 */
const RETRY = `
  WITH d AS (
    UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3
     WHERE id = $2 AND endpoint_id = $1
    RETURNING *
  )
  SELECT ${DELIVERY_COLUMNS} FROM d JOIN webhook_events e ON e.seq = d.event_seq`;

/**
 * The attempt counted with its outcome, the claim ended and the attempt kept, in one statement; a
 * delivery deleted meanwhile (its endpoint, the purge) updates and inserts nothing.
 */
const FINISH = `
  WITH d AS (
    UPDATE webhook_deliveries
       SET attempts = attempts + 1, status = $2, next_attempt_at = $3, lease_until = NULL
     WHERE id = $1
    RETURNING id
  )
  INSERT INTO webhook_attempts (delivery_id, at, status, error, duration_ms)
  SELECT id, $4, $5, $6, $7 FROM d`;

/** The delivery log, a manual retry, and an attempt's outcome (docs/protocol.md#webhooks). */
export function webhookDeliveries(
  query: Query,
): Pick<Store, 'listWebhookDeliveries' | 'retryWebhookDelivery' | 'finishWebhookAttempt'> {
  return {
    async listWebhookDeliveries(endpointId, limit) {
      return (await query<DeliveryRow>(LIST, [endpointId, limit])).map(toDeliveryRecord);
    },

    async retryWebhookDelivery(endpointId, deliveryId, now) {
      const row = (await query<DeliveryRow>(RETRY, [endpointId, deliveryId, now]))[0];
      return row === undefined ? null : toDeliveryRecord(row);
    },

    async finishWebhookAttempt(deliveryId, attempt, outcome) {
      const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
      await query(FINISH, [
        deliveryId,
        outcome.status,
        next,
        attempt.at,
        attempt.status,
        attempt.error,
        Math.round(attempt.durationMs),
      ]);
    },
  };
}
