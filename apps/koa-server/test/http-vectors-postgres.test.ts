import { loadHttpVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { expectHttpCase } from '@licence/http-vector-runner';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { startTestServer } from './test-server.js';

/**
 * Every case of packages/vectors/cases/http.json against the real Koa server on
 * PostgreSQL (the store and the PostgreSQL rate limiter of @licence/store-postgres on one pool),
 * over loopback: one throwaway cluster for the file, a fresh database per case. The same runner
 * and checks as http-vectors.test.ts on SQLite.
 */

// Without the binaries: skipped with one loud line outside CI; with CI=true this rejects.
const postgres = await throwawayPostgres('koa-server http vectors on PostgreSQL');

const vectors = loadHttpVectors();
/** The count the file holds today (as http-vectors.test.ts): a dropped case fails this file. */
const EXPECTED_CASES = 81;
const ran: string[] = [];

describe.skipIf(!postgres.available)('http.json vectors over Koa, PostgreSQL and loopback', () => {
  it(`holds ${EXPECTED_CASES} cases`, () => {
    expect(vectors.cases).toHaveLength(EXPECTED_CASES);
  });

  for (const vector of vectors.cases) {
    it(vector.name, async () => {
      const cluster = postgres.cluster();
      const databaseUrl = await cluster.createDatabase();
      const server = await startTestServer({
        clockStartMs: vectors.clockStart * 1000,
        backend: 'postgres',
        databaseUrl,
      });
      try {
        expect(server.backend).toBe('postgres');
        await expectHttpCase(vector, server);
        ran.push(vector.name);
      } finally {
        await server.close();
      }
    });
  }

  // Tests of one file run in order: this one runs last.
  it(`ran all ${EXPECTED_CASES} cases`, () => {
    expect(ran).toHaveLength(EXPECTED_CASES);
  });
});
