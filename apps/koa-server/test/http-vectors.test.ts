import { loadHttpVectors, loadSignatureVectors } from '@licence/vectors';
import type { HttpCase } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { expectHttpCase, runHttpCase } from '@licence/http-vector-runner';
import { startTestServer } from './test-server.js';

/**
 * Every case of packages/vectors/cases/http.json against the real Koa server over loopback: a
 * fresh server, SQLite file and rate limiter per case, the clock at `clockStart` (seconds; the
 * Clock port speaks ms), the admin API on. Every /api/ 200 is checked with core's verifyEnvelope
 * (vector-runner.ts).
 */

const vectors = loadHttpVectors();
/** The count the file holds today: a case dropped by the loader or the runner fails this file. */
const EXPECTED_CASES = 81;
const ran: string[] = [];

describe('http.json vectors over Koa, SQLite and loopback', () => {
  it(`holds ${EXPECTED_CASES} cases with distinct names`, () => {
    expect(vectors.cases).toHaveLength(EXPECTED_CASES);
    expect(new Set(vectors.cases.map((vector) => vector.name)).size).toBe(EXPECTED_CASES);
  });

  for (const vector of vectors.cases) {
    it(vector.name, async () => {
      const server = await startTestServer({ clockStartMs: vectors.clockStart * 1000 });
      try {
        await expectHttpCase(vector, server);
        ran.push(vector.name);
      } finally {
        await server.close();
      }
    });
  }

  it('the runner fails a case whose expectation or key is wrong (it is not vacuous)', async () => {
    const unknownKey = vectors.cases.find((vector) => vector.name.startsWith('rule 1:'));
    if (unknownKey === undefined) throw new Error('no rule 1 case');
    const wrong: HttpCase = {
      name: 'wrong on purpose',
      steps: unknownKey.steps.map((step) =>
        'request' in step
          ? {
              ...step,
              expect: {
                ...step.expect,
                donnees: { ...step.expect.donnees, motif: 'revocation' },
                headers: { 'x-missing': '*present*' },
              },
            }
          : step,
      ),
    };
    const server = await startTestServer({ clockStartMs: vectors.clockStart * 1000 });
    try {
      const { failures } = await runHttpCase(wrong, server);
      expect(failures).toEqual([
        'step 1 (POST /api/licence): header x-missing: undefined, expected *present*',
        'step 1 (POST /api/licence): donnees.motif: "inconnue", expected "revocation"',
      ]);
    } finally {
      await server.close();
    }
    // The same case checked against another key (TEST ONLY rotation key): it must not verify.
    const other = await startTestServer({ clockStartMs: vectors.clockStart * 1000 });
    try {
      const { failures } = await runHttpCase(unknownKey, {
        ...other,
        publicKey: loadSignatureVectors().keys.rotation.publicKey,
      });
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('the envelope does not verify');
    } finally {
      await other.close();
    }
  });

  // Tests of one file run in order: this one runs last.
  it(`ran all ${EXPECTED_CASES} cases`, () => {
    expect(ran).toHaveLength(EXPECTED_CASES);
  });
});
