import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres activity');

async function execute(url: string, text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgres.available)('activity counts (docs/protocol.md#activity)', () => {
  let url: string;
  let store: Store;

  beforeEach(async () => {
    url = await postgres.cluster().createDatabase();
    store = await openPostgresStore({ connectionString: url });
  });

  afterEach(async () => {
    await store.close();
  });

  it('reads the counts of the days asked, both ends included, of that product only', async () => {
    await execute(
      url,
      `INSERT INTO activity_days (product_id, day, outcome, count)
       SELECT p, d, o, d * 10 FROM unnest(ARRAY['theme', 'other']) AS p,
              generate_series(100, 110) AS d, unnest(ARRAY['ok', 'revocation']) AS o`,
    );
    const counts = await store.activity('theme', 102, 104);
    const sorted = [...counts].sort((x, y) => x.day - y.day || x.outcome.localeCompare(y.outcome));
    expect(sorted).toEqual([
      { day: 102, outcome: 'ok', count: 1020 },
      { day: 102, outcome: 'revocation', count: 1020 },
      { day: 103, outcome: 'ok', count: 1030 },
      { day: 103, outcome: 'revocation', count: 1030 },
      { day: 104, outcome: 'ok', count: 1040 },
      { day: 104, outcome: 'revocation', count: 1040 },
    ]);
    expect(await store.activity('nothing-here', 0, 1000)).toEqual([]);
  });

  it('refuses a count whose outcome no verdict has, rather than showing it under a made-up name', async () => {
    await execute(url, "INSERT INTO activity_days VALUES ('theme', 5, 'gratuit', 3)");
    await expect(store.activity('theme', 0, 10)).rejects.toThrow(
      'activity_days.outcome of product theme: expected one of ok, essai, autre_domaine, transfert, regeneration, revocation, expiree, inconnue, reseau, got "gratuit"',
    );
  });

  it('purges the counts of the days that ended before the cut-off, keeps the day it falls in', async () => {
    await execute(
      url,
      "INSERT INTO activity_days (product_id, day, outcome, count) SELECT 'theme', d, 'ok', 1 FROM generate_series(1, 5) AS d",
    );
    // The cut-off falls inside day 3: days 1 and 2 ended before it.
    expect(await store.purgeRequestLog(3 * 86_400 + 600)).toBe(0);
    const left = (await store.activity('theme', 0, 10)).map((count) => count.day).sort((x, y) => x - y);
    expect(left).toEqual([3, 4, 5]);
  });
});
