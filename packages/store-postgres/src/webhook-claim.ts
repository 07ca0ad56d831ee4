import type { Store } from '@licence/service';
import type { Transaction } from './transaction.js';

/**
 * The advisory lock every claim of webhook deliveries takes (transaction-scoped): claims run one at
 * a time across every process on this database. Any constant works as long as it never changes and
 * differs from MIGRATION_LOCK (migrate.ts); this one is "webhook" in ASCII.
 */
export const WEBHOOK_CLAIM_LOCK = 0x776562686f6f6bn;

/**
 * Of each endpoint without a live claim, its oldest pending delivery (event order) that is due,
 * then the `limit` oldest of those, claimed until $2; with what the attempt needs: the URL, the
 * body, and the secrets still valid at $1, newest first. A lease that ended (its process died)
 * no longer makes the endpoint busy. The LATERAL probe walks webhook_deliveries_pending (migration
 * step 5) per endpoint from its oldest pending delivery, stopping at the first one due: a long
 * backlog of an endpoint that answers costs one index entry, not a scan.
 */
const CLAIM = `
  WITH due AS (
    SELECT next.id, next.event_seq
      FROM webhook_endpoints w
      CROSS JOIN LATERAL (
        SELECT d.id, d.event_seq FROM webhook_deliveries d
         WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= $1
         ORDER BY d.event_seq LIMIT 1
      ) next
     WHERE NOT EXISTS (
       SELECT 1 FROM webhook_deliveries b
        WHERE b.endpoint_id = w.id AND b.lease_until IS NOT NULL AND b.lease_until > $1)
     ORDER BY next.event_seq
     LIMIT $3
  ), claimed AS (
    UPDATE webhook_deliveries d SET lease_until = $2 FROM due WHERE d.id = due.id
    RETURNING d.id, d.endpoint_id, d.event_seq, d.attempts
  )
  SELECT c.id, c.endpoint_id, e.id AS event_id, w.url, e.body, c.attempts,
         ARRAY(SELECT s.secret FROM webhook_secrets s
                WHERE s.endpoint_id = c.endpoint_id AND (s.ends_at IS NULL OR s.ends_at > $1)
                ORDER BY s.seq DESC) AS secrets
    FROM claimed c
    JOIN webhook_events e ON e.seq = c.event_seq
    JOIN webhook_endpoints w ON w.id = c.endpoint_id
   ORDER BY c.event_seq`;

interface ClaimRow {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly url: string;
  readonly body: string;
  readonly attempts: number;
  readonly secrets: readonly string[];
}

function toClaimed(row: ClaimRow): Store.ClaimedWebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    url: row.url,
    body: row.body,
    attempts: row.attempts,
    secrets: [...row.secrets],
  };
}

/**
 * The deliverer's claim (docs/protocol.md#webhooks: at least once, in order per endpoint, and no
 * double sends from several processes on one database). Why a lock rather than FOR UPDATE SKIP
 * LOCKED: row locks would keep two claimers off the SAME delivery, but the second one would skip
 * the endpoint's oldest delivery, locked by the first, and take the NEXT one of that endpoint: two
 * deliveries of one endpoint in flight at once, out of order. What must be exclusive is the
 * decision per endpoint, which no row lock covers; so claims take WEBHOOK_CLAIM_LOCK first, in a
 * statement of their own, and the claim statement after it (READ COMMITTED: a new snapshot per
 * statement) sees every lease the previous holder committed. A claim is one short statement a
 * second per process; holding the lock is cheap, and the lock ends with the transaction, even when
 * the process dies. Event order is seq order, taken when an event is written: of two changes that
 * commit at the same moment, the one written first may commit second, so a claim between the two
 * commits may send the later event first (order "as far as retries allow", and commits).
 */
export function webhookClaims(transaction: Transaction): Pick<Store, 'claimWebhookDeliveries'> {
  return {
    async claimWebhookDeliveries(now, leaseUntil, limit) {
      if (limit <= 0) return [];
      return transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [WEBHOOK_CLAIM_LOCK.toString()]);
        const rows = await client.query<ClaimRow>({
          name: 'licence_webhook_claim',
          text: CLAIM,
          values: [now, leaseUntil, limit],
        });
        return rows.rows.map(toClaimed);
      });
    },
  };
}
