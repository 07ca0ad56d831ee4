import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBinDir } from '@licence/pg-cluster';
import { describe, expect, it } from 'vitest';
import { LAMBDA_POOL_MAX } from '../src/open-lambda-runtime.js';
import { httpApiEvent, PRODUCT_UA, readResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * The store, signer and service are created once per container, lazily on the first
 * invocation, and reused by the later ones; the pool is small. `licence service ready` is logged
 * once per opening, so counting it counts openings.
 */

const run = promisify(execFile);
const postgres = await throwawayPostgres('lambda container lifecycle');

const verification = (url: string) =>
  httpApiEvent({
    method: 'POST',
    path: '/api/licence',
    headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA },
    body: JSON.stringify({ cle: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012', url }),
  });

const openings = (lines: readonly string[]) =>
  lines.filter((line) => line.includes('"msg":"licence service ready"')).length;

describe.skipIf(!postgres.available)('one runtime per container', () => {
  it('opens nothing before the first invocation, once for many (concurrent first ones included), again after close', async () => {
    const harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
    try {
      expect(harness.lines).toEqual([]);
      const first = await Promise.all([1, 2, 3].map((n) => harness.handler(verification(`https://c${n}.exemple.fr`))));
      expect(first.map((result) => readResult(result).statusCode)).toEqual([200, 200, 200]);
      for (let n = 0; n < 5; n += 1)
        expect(readResult(await harness.handler(verification('https://again.exemple.fr'))).statusCode).toBe(200);
      expect(openings(harness.lines)).toBe(1);
      await harness.close();
      expect(readResult(await harness.handler(verification('https://after.exemple.fr'))).statusCode).toBe(200);
      expect(openings(harness.lines)).toBe(2);
    } finally {
      await harness.close();
    }
  });

  it('holds at most LAMBDA_POOL_MAX connections to its database, however many requests it served', async () => {
    const cluster = postgres.cluster();
    const databaseUrl = await cluster.createDatabase();
    const harness = lambdaHarness({ databaseUrl });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, n) => harness.handler(verification(`https://p${n}.exemple.fr`))),
      );
      expect(results.map((result) => readResult(result).statusCode)).toEqual(Array.from({ length: 8 }, () => 200));
      // PostgreSQL's own count, through its psql client (this app does not depend on pg itself).
      const binDir = await findPostgresBinDir();
      if (binDir === null) throw new Error('no PostgreSQL binaries, though the cluster runs');
      const name = new URL(databaseUrl).pathname.slice(1);
      const { stdout } = await run(join(binDir, 'psql'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(cluster.port),
        '-U',
        'postgres',
        '-d',
        'licence',
        '-tAc',
        `SELECT count(*) FROM pg_stat_activity WHERE datname = '${name}'`,
      ]);
      const connections = Number(stdout.trim());
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(LAMBDA_POOL_MAX);
    } finally {
      await harness.close();
    }
  });
});
