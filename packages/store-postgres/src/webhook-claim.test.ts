import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';
import { WEBHOOK_CLAIM_LOCK } from './webhook-claim.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres webhook claims');

const NOW = 1_790_000_000;
const SECRET = `whsec_${'A'.repeat(43)}=`;
const ENDPOINTS = 6;
const EVENTS = 60;

/** `count` endpoints of every author, subscribed to key.issued, and `events` events of theme. */
async function seed(store: Store, endpoints: number, events: number): Promise<string[]> {
  await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
  const ids = Array.from({ length: endpoints }, (_, i) => `wh_${i}`);
  for (const id of ids) {
    const endpoint = { id, author: null, url: `https://${id}.example/`, events: ['key.issued'] as const };
    await store.addWebhookEndpoint({ ...endpoint, createdAt: 1, secret: SECRET });
  }
  for (let i = 0; i < events; i += 1) {
    const event = { id: `msg_${String(i).padStart(3, '0')}`, type: 'key.issued', produit: 'theme' } as const;
    expect(await store.addWebhookEvent({ ...event, at: NOW - events + i, body: `{"n":${i}}`, dedupe: null })).toBe(
      'added',
    );
  }
  return ids;
}

/** What the two workers saw, checked as it happens (every await is a chance for the other). */
interface Ledger {
  /** Delivery ids held right now, and their endpoints. */
  readonly held: Set<string>;
  readonly busy: Set<string>;
  /** Every claim of each delivery, and each endpoint's claims in order (event ids). */
  readonly claims: Map<string, number>;
  readonly order: Map<string, string[]>;
  readonly perWorker: number[];
  done: number;
  faults: string[];
}

function take(ledger: Ledger, worker: number, delivery: Store.ClaimedWebhookDelivery): void {
  if (ledger.held.has(delivery.id)) ledger.faults.push(`${delivery.id} claimed twice at once`);
  if (ledger.busy.has(delivery.endpointId)) ledger.faults.push(`${delivery.endpointId} held twice at once`);
  ledger.held.add(delivery.id);
  ledger.busy.add(delivery.endpointId);
  ledger.claims.set(delivery.id, (ledger.claims.get(delivery.id) ?? 0) + 1);
  ledger.order.set(delivery.endpointId, [...(ledger.order.get(delivery.endpointId) ?? []), delivery.eventId]);
  ledger.perWorker[worker] = (ledger.perWorker[worker] ?? 0) + 1;
}

/**
 * One "process": claims up to 2 at a time, holds each for a moment, then records its attempt: the
 * first attempt fails and is due again at once, the second delivers. Runs until every delivery is
 * delivered or the deadline passes.
 */
async function work(store: Store, worker: number, ledger: Ledger, total: number, deadline: number): Promise<void> {
  while (ledger.done < total && Date.now() < deadline) {
    const claimed = await store.claimWebhookDeliveries(NOW, NOW + 3600, 2);
    for (const delivery of claimed) take(ledger, worker, delivery);
    await Promise.all(
      claimed.map(async (delivery) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        const first = delivery.attempts === 0;
        const attempt = { at: NOW, status: first ? 500 : 204, error: null, durationMs: 3 };
        await store.finishWebhookAttempt(
          delivery.id,
          attempt,
          first ? { status: 'pending', nextAttemptAt: NOW } : { status: 'delivered' },
        );
        // Only once the store has the outcome is the endpoint free again.
        ledger.held.delete(delivery.id);
        ledger.busy.delete(delivery.endpointId);
        if (!first) ledger.done += 1;
      }),
    );
    if (claimed.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe.skipIf(!postgres.available)('claimWebhookDeliveries across processes (docs/protocol.md#webhooks)', () => {
  let url: string;
  let stores: [Store, Store];

  beforeEach(async () => {
    url = await postgres.cluster().createDatabase();
    // Two stores, two pools: as two server processes on one database.
    stores = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('never gives one delivery, nor two of one endpoint, to two claimers; each endpoint in event order', async () => {
    const endpoints = await seed(stores[0], ENDPOINTS, EVENTS);
    const total = ENDPOINTS * EVENTS;
    const ledger: Ledger = {
      held: new Set(),
      busy: new Set(),
      claims: new Map(),
      order: new Map(),
      perWorker: [0, 0],
      done: 0,
      faults: [],
    };
    const deadline = Date.now() + 60_000;
    await Promise.all(stores.map((store, worker) => work(store, worker, ledger, total, deadline)));

    expect(ledger.faults).toEqual([]);
    expect(ledger.done).toBe(total);
    // Every delivery claimed exactly twice (its failed attempt, then its successful one).
    expect(ledger.claims.size).toBe(total);
    expect([...ledger.claims.values()].every((count) => count === 2)).toBe(true);
    // Both processes did part of the work.
    expect(ledger.perWorker.every((count) => count > 0)).toBe(true);
    // Per endpoint: each event twice in a row, in the order the events were written.
    const written = Array.from({ length: EVENTS }, (_, i) => `msg_${String(i).padStart(3, '0')}`);
    for (const endpoint of endpoints) {
      expect(ledger.order.get(endpoint)).toEqual(written.flatMap((id) => [id, id]));
    }
    // The store agrees: every delivery delivered after two attempts, nothing left to claim.
    for (const endpoint of endpoints) {
      const log = await stores[1].listWebhookDeliveries(endpoint, EVENTS);
      expect(log.map((delivery) => [delivery.status, delivery.attempts.length])).toEqual(
        written.map(() => ['delivered', 2]),
      );
    }
    expect(await stores[0].claimWebhookDeliveries(NOW + 86_400, NOW + 90_000, 100)).toEqual([]);
  }, 90_000);

  it('claims under the advisory lock: a claim waits while another session holds it', async () => {
    await seed(stores[0], 1, 1);
    const short = await openPostgresStore({ connectionString: url, pool: { statementTimeoutMs: 300 } });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [WEBHOOK_CLAIM_LOCK.toString()]);
      await expect(short.claimWebhookDeliveries(NOW, NOW + 60, 5)).rejects.toThrow(/statement timeout/);
      await client.query('ROLLBACK');
      // Nothing was claimed by the cancelled call: the delivery is there for the next one.
      expect((await short.claimWebhookDeliveries(NOW, NOW + 60, 5)).map((claimed) => claimed.eventId)).toEqual([
        'msg_000',
      ]);
    } finally {
      await client.end();
      await short.close();
    }
  });
});
