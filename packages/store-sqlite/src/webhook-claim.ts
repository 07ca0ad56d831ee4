import type Database from 'better-sqlite3';
import type { WebhookFanout } from './webhook-fanout.js';
import type { Store } from '@licence/service';

interface ClaimRow {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly url: string;
  readonly body: string;
  readonly attempts: number;
}

interface ClaimParameters {
  readonly now: number;
  readonly limit: number;
}

function claimStatements(db: Database.Database) {
  return {
    // Per endpoint with no claim still holding (index webhook_deliveries_leased), its oldest due
    // pending delivery in event order (index webhook_deliveries_pending); the oldest events first, and
    // of one event, its endpoints in the order they were made (rowid).
    due: db.prepare<[ClaimParameters], ClaimRow>(
      'SELECT d.id, d.endpoint_id, e.id AS event_id, w.url, e.body, d.attempts FROM webhook_endpoints w ' +
        'JOIN webhook_deliveries d ON d.id = (SELECT p.id FROM webhook_deliveries p ' +
        "WHERE p.endpoint_id = w.id AND p.status = 'pending' AND p.next_attempt_at <= @now " +
        'ORDER BY p.event_seq LIMIT 1) ' +
        'JOIN webhook_events e ON e.seq = d.event_seq ' +
        'WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries l WHERE l.endpoint_id = w.id AND l.lease_until > @now) ' +
        'ORDER BY d.event_seq, w.rowid LIMIT @limit',
    ),
    lease: db.prepare<[number, string]>('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?'),
    // Newest first: during a rotation the new secret signs first (docs/protocol.md#webhooks).
    secrets: db.prepare<[string, number], { secret: string }>(
      'SELECT secret FROM webhook_secrets WHERE endpoint_id = ? AND (ends_at IS NULL OR ends_at > ?) ORDER BY seq DESC',
    ),
  };
}

/**
 * Events a slice of the claim's fan-out takes at most: with the 10 endpoints an author may have
 * (docs/protocol.md#endpoints), about 80 delivery rows, a few ms of the event loop. Without
 * slices, a second of keys issued without pause (over a thousand events, ten deliveries each) was
 * fanned out in one transaction of 200 to 300 ms, during which no verdict was answered; slices of
 * 64 events still left a verdict, which needs several turns of the loop, waiting behind a slice at
 * each (apps/koa-server/test/webhook-flood.test.ts).
 */
export const CLAIM_FANOUT_SLICE = 8;
/** Slices one claim runs at most before fanning out the rest in its own transaction. */
const MAX_FANOUT_SLICES = 1000;

/**
 * The deliverer's claim (docs/protocol.md#webhooks: at least once, in order per endpoint, one
 * deliverer's work however many processes share the file). The choice and the leases are one
 * IMMEDIATE transaction, after the fan-out of the events written since the last one
 * (webhook-fanout.ts): the write lock is taken before the read, so two processes claiming at
 * once run one after the other, and the second sees the first one's leases (a deferred transaction
 * would read first, and could only fail, not wait, when upgrading to write). A lease that outlives
 * its process simply expires: the endpoint is claimable again once `leaseUntil` is past.
 */
export function webhookClaim(db: Database.Database, fanOut: WebhookFanout): Pick<Store, 'claimWebhookDeliveries'> {
  const sql = claimStatements(db);

  const claim = db.transaction((now: number, leaseUntil: number, limit: number): Store.ClaimedWebhookDelivery[] => {
    fanOut();
    return sql.due.all({ now, limit }).map((row) => {
      sql.lease.run(leaseUntil, row.id);
      return {
        id: row.id,
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        url: row.url,
        body: row.body,
        attempts: row.attempts,
        secrets: sql.secrets.all(row.endpoint_id, now).map((secret) => secret.secret),
      };
    });
  });

  // A backlog of events is fanned out first in slices, each its own IMMEDIATE transaction, the
  // event loop free between them: requests are answered meanwhile, not after the whole backlog.
  const slice = db.transaction((): boolean => fanOut(CLAIM_FANOUT_SLICE));

  return {
    async claimWebhookDeliveries(now, leaseUntil, limit) {
      if (!Number.isSafeInteger(limit) || limit < 1) {
        return [];
      }
      for (let slices = 0; slices < MAX_FANOUT_SLICES && slice.immediate(); slices += 1) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      return claim.immediate(now, leaseUntil, limit);
    },
  };
}
