import { loadHttpVectors, loadSignatureVectors } from '@licence/vectors';
import type { HttpCase } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { expectHttpCase } from './http-vector-case.js';
import { runHttpCase } from './vector-runner.js';
import type { LoggedVectorTarget } from './vector-target.js';

/** The count http.json holds today: a case dropped by the loader or the runner fails every suite. */
export const EXPECTED_HTTP_CASES = 100;

/** A server started for one case, stopped after it. */
export interface StartedVectorTarget extends LoggedVectorTarget {
  close(): Promise<void>;
}

export interface HttpVectorSuite {
  /** The `describe` title: what serves the vectors (adapter, backend, transport). */
  readonly title: string;
  /** A fresh server (store, rate limiter, clock at `clockStartMs`) for one case. */
  readonly start: (clockStartMs: number) => Promise<StartedVectorTarget>;
  /** Skip the whole suite (its backend is not on this machine). */
  readonly skip?: boolean;
  /** Also show that the runner fails a wrong expectation and a wrong key on this server. */
  readonly provesRunner?: boolean;
}

/** rule 1 of http.json, expecting what it does not get: a header and another motif. */
function wrongOnPurpose(vector: HttpCase): HttpCase {
  return {
    name: 'wrong on purpose',
    steps: vector.steps.map((step) =>
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
}

/** Runs `check` on a fresh server, and stops it whatever happens. */
async function onFreshTarget(
  suite: HttpVectorSuite,
  clockStartMs: number,
  check: (target: StartedVectorTarget) => Promise<void>,
) {
  const target = await suite.start(clockStartMs);
  try {
    await check(target);
  } finally {
    await target.close();
  }
}

/** The runner is not vacuous: the same server fails a case whose expectation, or whose key, is wrong. */
function itProvesTheRunner(suite: HttpVectorSuite, cases: readonly HttpCase[], clockStartMs: number): void {
  it('the runner fails a case whose expectation or key is wrong (it is not vacuous)', async () => {
    const unknownKey = cases.find((vector) => vector.name.startsWith('rule 1:'));
    if (unknownKey === undefined) throw new Error('no rule 1 case');
    await onFreshTarget(suite, clockStartMs, async (target) => {
      expect((await runHttpCase(wrongOnPurpose(unknownKey), target)).failures).toEqual([
        'step 1 (POST /api/licence): header x-missing: undefined, expected *present*',
        'step 1 (POST /api/licence): donnees.motif: "inconnue", expected "revocation"',
      ]);
    });
    // The same case checked against another key (TEST ONLY rotation key): it must not verify.
    await onFreshTarget(suite, clockStartMs, async (target) => {
      const rotation = loadSignatureVectors().keys.rotation.publicKey;
      const { failures } = await runHttpCase(unknownKey, { ...target, publicKey: rotation });
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('the envelope does not verify');
    });
  });
}

/**
 * Every case of packages/vectors/cases/http.json as one vitest test against a fresh server
 * (expectHttpCase: every step, every /api/ 200 verified, no secret in the logs), framed by a count
 * of the cases before and after, so that a case the loader or the runner drops fails the suite.
 * For vitest suites only, like expectHttpCase.
 */
export function describeHttpVectors(suite: HttpVectorSuite): void {
  const vectors = loadHttpVectors();
  const clockStartMs = vectors.clockStart * 1000;
  const ran: string[] = [];
  describe.skipIf(suite.skip === true)(suite.title, () => {
    it(`holds ${EXPECTED_HTTP_CASES} cases with distinct names`, () => {
      expect(vectors.cases).toHaveLength(EXPECTED_HTTP_CASES);
      expect(new Set(vectors.cases.map((vector) => vector.name)).size).toBe(EXPECTED_HTTP_CASES);
    });

    for (const vector of vectors.cases) {
      it(vector.name, async () => {
        await onFreshTarget(suite, clockStartMs, async (target) => {
          await expectHttpCase(vector, target);
          ran.push(vector.name);
        });
      });
    }

    if (suite.provesRunner === true) itProvesTheRunner(suite, vectors.cases, clockStartMs);

    // Tests of one file run in order: this one runs last.
    it(`ran all ${EXPECTED_HTTP_CASES} cases`, () => {
      expect(ran).toHaveLength(EXPECTED_HTTP_CASES);
    });
  });
}
