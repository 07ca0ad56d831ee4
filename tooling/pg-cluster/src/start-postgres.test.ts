import { access } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailability } from './postgres-availability.js';
import { startPostgres } from './start-postgres.js';
import type { PostgresCluster } from './start-postgres.js';

const { binDir } = await postgresAvailability('pg-cluster');

async function selectOne(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one;
  } finally {
    await client.end();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    // A missing path is the answer here.
    return false;
  }
}

describe.skipIf(binDir === null)('startPostgres', () => {
  let cluster: PostgresCluster;

  beforeAll(async () => {
    cluster = await startPostgres({ binDir: binDir ?? '' });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves the database licence on loopback, at the port it names', async () => {
    expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/licence`);
    expect(await selectOne(cluster.url)).toBe(1);
  });

  it('creates fresh empty databases', async () => {
    const a = await cluster.createDatabase();
    const b = await cluster.createDatabase();
    expect(a).not.toBe(b);
    expect(await selectOne(a)).toBe(1);
    await expect(cluster.createDatabase('Bad name; DROP')).rejects.toThrow(/createDatabase: expected a name/);
  });

  it('halts like a crash and resumes with its data on the same port', async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await client.end();

    await cluster.halt();
    await expect(selectOne(url)).rejects.toThrow();
    await cluster.resume();

    const again = new pg.Client({ connectionString: url });
    await again.connect();
    expect((await again.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 7 }]);
    await again.end();
  }, 30_000);

  it('stops, removes its folder, and a second stop does nothing', async () => {
    const other = await startPostgres({ binDir: binDir ?? '' });
    expect(await exists(other.dataDir)).toBe(true);
    await other.stop();
    expect(await exists(other.dataDir)).toBe(false);
    await expect(selectOne(other.url)).rejects.toThrow();
    await expect(other.stop()).resolves.toBeUndefined();
  }, 60_000);
});
