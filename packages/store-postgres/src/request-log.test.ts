import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres request log');

const DAY = 20_000;
const AT = DAY * 86_400 + 3_600;

/** The activity counts as the database holds them, in key order. */
async function storedDays(url: string): Promise<{ product: string; day: number; outcome: string; count: number }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ product: string; day: number; outcome: string; count: string }>(
      'SELECT product_id AS product, day, outcome, count FROM activity_days ORDER BY 1, 2, 3',
    );
    return result.rows.map((row) => ({ ...row, count: Number(row.count) }));
  } finally {
    await client.end();
  }
}

function entry(produit: string | null, outcome: Store.RequestLogEntry['outcome'], i: number): Store.RequestLogEntry {
  return { at: AT + (i % 60), keyId: null, host: `h${i}.fr`, ip: '203.0.113.7', outcome, produit };
}

describe.skipIf(!postgres.available)(
  'logRequest and the activity counts, across processes (docs/protocol.md#activity)',
  () => {
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

    it('adds up two processes logging 500 verdicts each of the same product, day and outcome: exactly 1000', async () => {
      const [a, b] = stores;
      const settled = await Promise.allSettled(
        Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? a : b).logRequest(entry('theme', 'ok', i))),
      );
      expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
      expect(await storedDays(url)).toEqual([{ product: 'theme', day: DAY, outcome: 'ok', count: 1000 }]);
      expect(await b.activity('theme', DAY, DAY)).toEqual([{ day: DAY, outcome: 'ok', count: 1000 }]);
    });

    it('never deadlocks when both batches share many counts, arriving in opposite orders', async () => {
      // Every batch of 64 holds 24 shared (product, day, outcome) rows; process b sends them in the
      // reverse order of process a, the order that would deadlock two unsorted upserts.
      const keys = ['p1', 'p2', 'p3', 'p4'].flatMap((produit) =>
        (['ok', 'essai', 'revocation', 'expiree', 'autre_domaine', 'inconnue'] as const).map((outcome) => ({
          produit,
          outcome,
        })),
      );
      const rounds = 40;
      const calls: Promise<void>[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const [i, key] of keys.entries()) {
          const reversed = keys[keys.length - 1 - i] ?? key;
          calls.push(stores[0].logRequest(entry(key.produit, key.outcome, i)));
          calls.push(stores[1].logRequest(entry(reversed.produit, reversed.outcome, i)));
        }
      }
      const settled = await Promise.allSettled(calls);
      expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
      const days = await storedDays(url);
      expect(days).toHaveLength(keys.length);
      expect(days.every((row) => row.day === DAY && row.count === 2 * rounds)).toBe(true);
    });

    it('counts an unknown key nowhere, and a verdict on the next UTC day on that day', async () => {
      const [a] = stores;
      await Promise.all([
        a.logRequest(entry(null, 'inconnue', 1)),
        a.logRequest(entry('theme', 'essai', 2)),
        a.logRequest({ ...entry('theme', 'essai', 3), at: (DAY + 1) * 86_400 }),
        a.logRequest({ ...entry('theme', 'essai', 4), at: (DAY + 1) * 86_400 - 1 }),
      ]);
      expect(await storedDays(url)).toEqual([
        { product: 'theme', day: DAY, outcome: 'essai', count: 2 },
        { product: 'theme', day: DAY + 1, outcome: 'essai', count: 1 },
      ]);
    });
  },
);
