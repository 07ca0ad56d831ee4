import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase64, isRecord, verifyEnvelope } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { spawnServe } from './cli-process.js';
import { benchmarkAddress, parseJson, postVerdict, stopAll } from './serve-processes.js';

/**
 * Shared limit: the 30 accepted verdict calls (docs/protocol.md#rate-limit) per client per minute
 * hold across processes, because on PostgreSQL the limiter's windows live in the database. 40 calls
 * from one client address, sent at once and alternated over two `licence serve` processes: exactly
 * 30 are answered 200 and 10 are 429 with Retry-After, whichever process each one reached.
 */

const postgres = await throwawayPostgres('koa-server shared rate limit on PostgreSQL');

const root = mkdtempSync(join(tmpdir(), 'licence-limit-'));
const CALLS = 40;
const LIMIT = 30;

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!postgres.available)('two processes on one PostgreSQL database share the rate limit', () => {
  it('40 concurrent calls from one client over both processes: exactly 30 answered 200, 10 answered 429 with Retry-After', async () => {
    const cluster = postgres.cluster();
    const env = {
      DATABASE_URL: await cluster.createDatabase(),
      TRUST_PROXY: '1',
      LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(5)),
    };
    const cwd = mkdtempSync(join(root, 'serve-'));
    const servers = await Promise.all([spawnServe({ cwd, env }), spawnServe({ cwd, env })]);
    try {
      const client = benchmarkAddress(42);
      const body = { cle: 'ABCD-EFGH-JKLM-NPQR', url: 'https://boutique.exemple.fr/' };
      const answers = await Promise.all(
        Array.from({ length: CALLS }, (_, i) => {
          const server = servers[i % servers.length];
          if (server === undefined) throw new Error('no server');
          return postVerdict(server.url, body, client);
        }),
      );
      const accepted = answers.filter((answer) => answer.status === 200);
      const limited = answers.filter((answer) => answer.status === 429);
      // Each process got 20 calls: a limit kept per process would have accepted all 40.
      expect(accepted).toHaveLength(LIMIT);
      expect(limited).toHaveLength(CALLS - LIMIT);
      // The 200s are signed verdicts (an unknown key: a signed refusal, docs/protocol.md#verdict).
      for (const answer of accepted) {
        expect(
          verifyEnvelope(JSON.parse(answer.text), [servers[0]?.publicKey ?? ''], { hote: 'boutique.exemple.fr' }),
        ).toBe(true);
      }
      // The 429s are problems (RFC 9457) that say when to come back (RFC 9110 10.2.3), in whole seconds within the window.
      for (const answer of limited) {
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(parseJson(answer.text)).toMatchObject({ status: 429 });
        const retryAfter = Number(answer.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
      // Another client is not affected, on either process.
      for (const server of servers) {
        const other = await postVerdict(server.url, body, benchmarkAddress(43));
        expect(other.status).toBe(200);
        expect(isRecord(parseJson(other.text).donnees)).toBe(true);
      }
    } finally {
      expect(await stopAll(servers)).toEqual([0, 0]);
    }
  });
});
