import { expectHttpCase, runHttpCase } from '@licence/http-vector-runner';
import { loadHttpVectors, loadSignatureVectors } from '@licence/vectors';
import type { HttpCase } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
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

const vectors = loadHttpVectors();
/** The count the file holds today (as koa-server's tests): a dropped case fails this file. */
const EXPECTED_CASES = 81;
const ran: string[] = [];

/** A fresh database, handler and runner for one case. */
async function startTarget() {
  const harness = lambdaHarness({
    databaseUrl: await postgres.cluster().createDatabase(),
    clockStartMs: vectors.clockStart * 1000,
  });
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

describe.skipIf(!postgres.available)(
  'http.json vectors over the Lambda handler, the local runner and PostgreSQL',
  () => {
    it(`holds ${EXPECTED_CASES} cases with distinct names`, () => {
      expect(vectors.cases).toHaveLength(EXPECTED_CASES);
      expect(new Set(vectors.cases.map((vector) => vector.name)).size).toBe(EXPECTED_CASES);
    });

    for (const vector of vectors.cases) {
      it(vector.name, async () => {
        const target = await startTarget();
        try {
          await expectHttpCase(vector, target);
          ran.push(vector.name);
        } finally {
          await target.close();
        }
      });
    }

    it('the runner fails a case whose expectation or key is wrong here too (it is not vacuous)', async () => {
      const unknownKey = vectors.cases.find((vector) => vector.name.startsWith('rule 1:'));
      if (unknownKey === undefined) throw new Error('no rule 1 case');
      const wrong: HttpCase = {
        name: 'wrong on purpose',
        steps: unknownKey.steps.map((step) =>
          'request' in step
            ? { ...step, expect: { ...step.expect, donnees: { ...step.expect.donnees, motif: 'revocation' } } }
            : step,
        ),
      };
      const target = await startTarget();
      try {
        expect((await runHttpCase(wrong, target)).failures).toEqual([
          'step 1 (POST /api/licence): donnees.motif: "inconnue", expected "revocation"',
        ]);
        const other = await runHttpCase(unknownKey, {
          ...target,
          publicKey: loadSignatureVectors().keys.rotation.publicKey,
        });
        expect(other.failures).toHaveLength(1);
        expect(other.failures[0]).toContain('the envelope does not verify');
      } finally {
        await target.close();
      }
    });

    // Tests of one file run in order: this one runs last.
    it(`ran all ${EXPECTED_CASES} cases`, () => {
      expect(ran).toHaveLength(EXPECTED_CASES);
    });
  },
);
