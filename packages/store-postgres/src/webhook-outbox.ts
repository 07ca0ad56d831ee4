import type { PoolClient } from 'pg';
import { webhookDeliveryId } from '@licence/service';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import type { Transaction } from './transaction.js';

const DEDUPE_TAKEN = 'SELECT 1 FROM webhook_events WHERE dedupe = $1';

/**
 * The endpoints each event goes to: subscribed to its type, and of its product's author or of
 * every author (author NULL). FOR KEY SHARE: an endpoint deleted meanwhile is either gone from the
 * answer or waits for this transaction, so the deliveries' foreign key never fails the change that
 * caused the event (https://www.postgresql.org/docs/15/explicit-locking.html#LOCKING-ROWS).
 */
const RECIPIENTS = `
  SELECT ev.n, w.id
    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS ev(type, produit, n)
    JOIN webhook_endpoints w
      ON ev.type = ANY (w.events)
     AND (w.author IS NULL OR w.author = (SELECT p.author FROM products p WHERE p.id = ev.produit))
   ORDER BY w.id
     FOR KEY SHARE OF w`;

/**
 * The events, in their order (their seq is the order of each endpoint's deliveries), and the
 * deliveries of those stored: an event whose dedupe is taken inserts nothing, nor its deliveries.
 * One statement; a new delivery is due at its event's time.
 */
const WRITE = `
  WITH stored AS (
    INSERT INTO webhook_events (id, type, product_id, at, body, dedupe)
    SELECT id, type, produit, at, body, dedupe
      FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[])
           WITH ORDINALITY AS ev(id, type, produit, at, body, dedupe, n)
     ORDER BY n
        ON CONFLICT (dedupe) DO NOTHING
    RETURNING seq, id, at
  ), deliveries AS (
    INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at)
    SELECT d.id, d.endpoint_id, s.seq, 'pending', s.at
      FROM unnest($7::text[], $8::text[], $9::text[]) AS d(id, event_id, endpoint_id)
      JOIN stored s ON s.id = d.event_id
  )
  SELECT id FROM stored`;

/**
 * Writes `events` and their deliveries on `client`, inside the caller's transaction (the outbox,
 * docs/protocol.md#webhooks): they commit with the change that caused them or not at all. Answers
 * the ids of the events stored (not those whose dedupe was taken). Two statements: the recipients,
 * then everything else, so a delivery's id is webhookDeliveryId's, the same in every store.
 */
export async function writeWebhookEvents(
  client: PoolClient,
  events: readonly Store.NewWebhookEvent[],
): Promise<readonly string[]> {
  if (events.length === 0) {
    return [];
  }
  const recipients = await client.query<{ n: string; id: string }>(RECIPIENTS, [
    events.map((event) => event.type),
    events.map((event) => event.produit),
  ]);
  const deliveries = recipients.rows.map((row) => {
    const event = events[Number(row.n) - 1];
    if (event === undefined) throw new Error(`webhook recipients: no event ${row.n}`);
    return { id: webhookDeliveryId(event.id, row.id), eventId: event.id, endpointId: row.id };
  });
  const stored = await client.query<{ id: string }>(WRITE, [
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => event.produit),
    events.map((event) => event.at),
    events.map((event) => event.body),
    events.map((event) => event.dedupe),
    deliveries.map((delivery) => delivery.id),
    deliveries.map((delivery) => delivery.eventId),
    deliveries.map((delivery) => delivery.endpointId),
  ]);
  return stored.rows.map((row) => row.id);
}

/**
 * An event no key change causes (verdict.refused), with its deliveries, in one transaction. The
 * service may offer the same refusal on every verdict of that day: a taken dedupe is answered by one
 * indexed read, without a transaction; a race past it is settled by the unique index.
 */
export function webhookEvents(query: Query, transaction: Transaction): Pick<Store, 'addWebhookEvent'> {
  return {
    async addWebhookEvent(event) {
      if (event.dedupe !== null) {
        const taken = await query({ name: 'licence_webhook_dedupe', text: DEDUPE_TAKEN }, [event.dedupe]);
        if (taken.length > 0) return 'duplicate';
      }
      const stored = await transaction((client) => writeWebhookEvents(client, [event]));
      return stored.length === 1 ? 'added' : 'duplicate';
    },
  };
}
