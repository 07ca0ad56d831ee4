import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import type { Store } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';
import { DELETE_CHUNK, PURGE_CHUNK } from './purge-request-log.js';
import { withClient } from '../test/with-client.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres purge');

/** The plan's node types, the relation or index each reads and its filter, depth first. */
function planNodes(node: Record<string, unknown>): string[] {
  const read = String(node['Index Name'] ?? node['Relation Name'] ?? '');
  const here = `${String(node['Node Type'])} ${read} ${String(node.Filter ?? '')}`.trim();
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [here, ...children.flatMap(planNodes)];
}

describe.skipIf(!postgres.available)('the request log purge (docs/protocol.md#storage)', () => {
  let url: string;
  let store: Store;
  const OLD = 20_000;
  const NEW = 80_000;
  const CUT = 1_000_000;

  beforeEach(async () => {
    url = await postgres.cluster().createDatabase();
    store = await openPostgresStore({ connectionString: url });
    // The entries past the cut-off are a fifth of the log and sit LAST in the table, as a heavy
    // day logged late or rows written into space vacuum freed do; the statistics know it.
    await withClient(url, async (client) => {
      await client.query(
        "INSERT INTO request_log (at, key_id, host, ip) SELECT $1 + n, NULL, 'a.fr', '203.0.113.7' FROM generate_series(1, $2) AS n",
        [CUT, NEW],
      );
      await client.query(
        "INSERT INTO request_log (at, key_id, host, ip) SELECT n, NULL, 'b.fr', '203.0.113.8' FROM generate_series(1, $1) AS n",
        [OLD],
      );
      await client.query('ANALYZE request_log');
    });
  });

  afterEach(async () => {
    await store.close();
  });

  it('walks the index on `at` for each chunk, never the whole table', async () => {
    const plan = await withClient(url, async (client) => {
      const result = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
        `EXPLAIN (FORMAT JSON) ${DELETE_CHUNK}`,
        [CUT, PURGE_CHUNK],
      );
      return planNodes(result.rows[0]?.['QUERY PLAN'][0].Plan ?? {});
    });
    // The chunk's rows are found through the index; a sequential scan filtering on `at` would
    // read the whole table to find them. (The outer DELETE may join the ids either way.)
    expect(plan.some((node) => /^Index (Only )?Scan request_log_at/.test(node))).toBe(true);
    expect(plan.filter((node) => node.startsWith('Seq Scan') && node.includes('at <'))).toEqual([]);
  });

  it('deletes exactly the entries before the cut-off, chunk after chunk', async () => {
    expect(await store.purgeRequestLog(CUT)).toBe(OLD);
    const left = await withClient(url, async (client) => {
      const result = await client.query<{ n: string; oldest: string }>(
        'SELECT count(*) AS n, min(at) AS oldest FROM request_log',
      );
      return result.rows[0];
    });
    expect(left).toEqual({ n: String(NEW), oldest: String(CUT + 1) });
  });
});
