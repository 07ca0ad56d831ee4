import { describeHttpVectors } from '@licence/http-vector-runner';
import { startLocalRunner } from '../src/local-runner.js';
import { lambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * Every case of packages/vectors/cases/http.json against the Lambda handler, over HTTP on
 * loopback through the local runner (each request an HTTP API v2 event, the socket's address as
 * its sourceIp), on a real PostgreSQL: one throwaway cluster for the file, a fresh database and a
 * fresh handler (a new "container") per case, the clock at the file's `clockStart`. The same
 * runner and checks as the Koa server's http-vectors tests.
 */

const postgres = await throwawayPostgres('lambda http vectors');

/** A fresh database, handler and runner for one case. */
async function startTarget(clockStartMs: number) {
  const harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase(), clockStartMs });
  const runner = await startLocalRunner({ handler: harness.handler });
  return {
    url: runner.url,
    adminToken: harness.adminToken,
    publicKey: harness.publicKey,
    clock: harness.clock,
    lines: harness.lines,
    close: async () => {
      await runner.close();
      await harness.close();
    },
  };
}

describeHttpVectors({
  title: 'http.json vectors over the Lambda handler, the local runner and PostgreSQL',
  skip: !postgres.available,
  start: startTarget,
  provesRunner: true,
});
