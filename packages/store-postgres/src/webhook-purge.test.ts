import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';
import { WEBHOOK_DELETE_CHUNK } from './webhook-endpoints.js';
import { WEBHOOK_PURGE_CHUNK } from './webhook-purge.js';
import { withClient } from '../test/with-client.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres webhook purge');

const SECRET = `whsec_${'A'.repeat(43)}=`;
/**
 * More events than two chunks of the purge, and deliveries of one endpoint than two chunks of its
 * deletion; each delivered to both endpoints after two attempts.
 */
const EVENTS = Math.max(WEBHOOK_PURGE_CHUNK, WEBHOOK_DELETE_CHUNK) * 2 + 203;
/** Events 1000 to 1010 still have a pending delivery (to wh_a). */
const PENDING = { from: 1000, to: 1010 };

/** Events at 1..EVENTS, with their deliveries and attempts, written in bulk around the port. */
async function seed(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(
      "INSERT INTO webhook_events (id, type, product_id, at, body) SELECT 'msg_' || n, 'key.issued', 'theme', n, '{}' FROM generate_series(1, $1) AS n",
      [EVENTS],
    );
    await client.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, attempts, next_attempt_at)
       SELECT 'dlv_' || e.seq || w.id, w.id, e.seq,
              CASE WHEN w.id = 'wh_a' AND e.at BETWEEN $1 AND $2 THEN 'pending' ELSE 'delivered' END, 2,
              CASE WHEN w.id = 'wh_a' AND e.at BETWEEN $1 AND $2 THEN e.at + 5 END
         FROM webhook_events e CROSS JOIN webhook_endpoints w`,
      [PENDING.from, PENDING.to],
    );
    await client.query(
      `INSERT INTO webhook_attempts (delivery_id, at, status, error, duration_ms)
       SELECT d.id, 1, s, NULL, 5 FROM webhook_deliveries d CROSS JOIN (VALUES (500), (204)) AS a(s)`,
    );
  });
}

async function counts(url: string): Promise<{ events: number; deliveries: number; attempts: number }> {
  return withClient(url, async (client) => {
    const row = (
      await client.query<{ events: string; deliveries: string; attempts: string }>(
        'SELECT (SELECT count(*) FROM webhook_events) AS events, (SELECT count(*) FROM webhook_deliveries) AS deliveries, (SELECT count(*) FROM webhook_attempts) AS attempts',
      )
    ).rows[0];
    return { events: Number(row?.events), deliveries: Number(row?.deliveries), attempts: Number(row?.attempts) };
  });
}

describe.skipIf(!postgres.available)('webhook purge and endpoint deletion, in short steps', () => {
  let url: string;
  let stores: [Store, Store];

  beforeEach(async () => {
    url = await postgres.cluster().createDatabase();
    stores = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
    await stores[0].addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    for (const id of ['wh_a', 'wh_b']) {
      const endpoint = { id, author: null, url: `https://${id}.example/`, events: ['key.issued'] as const };
      await stores[0].addWebhookEndpoint({ ...endpoint, createdAt: 1, secret: SECRET });
    }
    await seed(url);
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('deletes old events without a pending delivery, with their deliveries and attempts, each once across two processes', async () => {
    const before = EVENTS - 100;
    const kept = EVENTS - (before - 1) + (PENDING.to - PENDING.from + 1);
    const [x, y] = await Promise.all([stores[0].purgeWebhookEvents(before), stores[1].purgeWebhookEvents(before)]);
    expect(x + y).toBe(EVENTS - kept);
    expect(await counts(url)).toEqual({ events: kept, deliveries: kept * 2, attempts: kept * 4 });
    // The pending ones stay until they are delivered or failed; the purge finds nothing more.
    expect(await stores[0].purgeWebhookEvents(before)).toBe(0);
    const [claimed] = await stores[0].claimWebhookDeliveries(PENDING.to + 5, PENDING.to + 65, 1);
    expect(claimed?.eventId).toBe(`msg_${PENDING.from}`);
  });

  it('deletes an endpoint with thousands of deliveries, and nothing of another endpoint', async () => {
    expect(await stores[0].deleteWebhookEndpoint('wh_a')).toBe(true);
    expect(await counts(url)).toEqual({ events: EVENTS, deliveries: EVENTS, attempts: EVENTS * 2 });
    expect((await stores[1].listWebhookEndpoints(null)).map((endpoint) => endpoint.id)).toEqual(['wh_b']);
    expect(await stores[1].listWebhookDeliveries('wh_a', 10)).toEqual([]);
    expect(await stores[0].deleteWebhookEndpoint('wh_a')).toBe(false);
    // Every event is now delivered (wh_b's deliveries): the purge deletes them all.
    expect(await stores[0].purgeWebhookEvents(EVENTS + 1)).toBe(EVENTS);
  });
});
