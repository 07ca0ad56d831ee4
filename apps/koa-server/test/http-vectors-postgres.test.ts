import { describeHttpVectors } from '@licence/http-vector-runner';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { expect } from 'vitest';
import { startTestServer } from './test-server.js';

/**
 * Every case of packages/vectors/cases/http.json against the real Koa server on
 * PostgreSQL (the store and the PostgreSQL rate limiter of @licence/store-postgres on one pool),
 * over loopback: one throwaway cluster for the file, a fresh database per case. The same runner
 * and checks as http-vectors.test.ts on SQLite.
 */

// Without the binaries: skipped with one loud line outside CI; with CI=true this rejects.
const postgres = await throwawayPostgres('koa-server http vectors on PostgreSQL');

describeHttpVectors({
  title: 'http.json vectors over Koa, PostgreSQL and loopback',
  skip: !postgres.available,
  start: async (clockStartMs) => {
    const databaseUrl = await postgres.cluster().createDatabase();
    const server = await startTestServer({ clockStartMs, backend: 'postgres', databaseUrl });
    expect(server.backend).toBe('postgres');
    return server;
  },
});
