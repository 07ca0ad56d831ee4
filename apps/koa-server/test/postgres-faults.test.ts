import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeBase64, isRecord, verifyEnvelope } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { send } from '@licence/http-vector-runner';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, runCli, spawnServe } from './cli-process.js';
import { benchmarkAddress, parseJson, postVerdict, stopAll } from './serve-processes.js';
import type { TimedAnswer } from './serve-processes.js';

/**
 * Faults: PostgreSQL stops (an immediate shutdown: a crash) while `licence serve` is
 * under a steady load. Every answer during the outage is a 5xx problem+json (an internal fault is
 * never a signed refusal, docs/protocol.md#errors), no request waits more than the 2 s the pool's
 * timeouts allow, `/healthz` says the store is down; once PostgreSQL is back, the same process
 * serves again by itself within 5 s (the pool opens new connections), without a restart.
 *
 * The durations are correctness bounds of the timeouts, not speed targets: 2 s plus a margin for
 * a loaded test machine, and a 5 s recovery polled every 100 ms.
 */

const postgres = await throwawayPostgres('koa-server PostgreSQL faults');

const root = mkdtempSync(join(tmpdir(), 'licence-faults-'));
const WORKERS = 4;
const MAX_WAIT_MS = 2500;
const MAX_RECOVERY_MS = 5000;
const PRODUIT = 'theme';
const HOST = 'boutique.exemple.fr';
const usedKeys: string[] = [];

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

interface LoadedAnswer extends TimedAnswer {
  /** When the request was sent, on performance.now()'s clock. */
  readonly sentAt: number;
}

/**
 * A steady load: WORKERS loops of one request after another, each from its own client address
 * (so the per-client limit of docs/protocol.md#rate-limit never answers instead of the store),
 * until `stop()` is called or `maxCalls` answers are in: bounded in time and in count.
 */
function startLoad(url: string, cle: string, maxCalls: number) {
  const answers: LoadedAnswer[] = [];
  let running = true;
  let n = 0;
  const worker = async (): Promise<void> => {
    while (running && answers.length < maxCalls) {
      const sentAt = performance.now();
      const answer = await postVerdict(url, { cle, url: `https://${HOST}/`, produit: PRODUIT }, benchmarkAddress(n++));
      answers.push({ ...answer, sentAt });
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, worker));
  return {
    answers,
    stop: async (): Promise<LoadedAnswer[]> => {
      running = false;
      await done;
      return answers;
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling every 20 ms, for at most `ms` (a guard against a stuck load, not a timed assertion). */
async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check() && performance.now() < deadline) await sleep(20);
}

function expectProblem5xx(answer: TimedAnswer): void {
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(500);
  expect(answer.status).toBeLessThan(600);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = parseJson(answer.text);
  expect(problem).toMatchObject({ status: answer.status });
  expect(typeof problem.title).toBe('string');
  // Never a verdict: no donnees, no signature.
  expect(problem).not.toHaveProperty('donnees');
  expect(problem).not.toHaveProperty('signature');
}

describe.skipIf(!postgres.available)('licence serve on PostgreSQL when PostgreSQL stops and comes back', () => {
  it('answers 5xx problems within 2 s during the outage, /healthz says down, and serves again within 5 s of the restart', async () => {
    const cluster = postgres.cluster();
    const db = cluster;
    const env = { DATABASE_URL: await db.createDatabase() };
    const cwd = mkdtempSync(join(root, 'serve-'));
    const serve = await spawnServe({
      cwd,
      env: { ...env, TRUST_PROXY: '1', LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(3)) },
    });
    try {
      expect(
        (await runCli(['product', 'add', PRODUIT, '--author', 'atelier', '--name', 'Theme'], { cwd, env })).code,
      ).toBe(0);
      const issued = await runCli(['key', 'issue', '--produit', PRODUIT, '--kind', 'buyer', '--json'], { cwd, env });
      expect(issued.code).toBe(0);
      const cle = parseJson(issued.stdout).cle;
      if (typeof cle !== 'string') throw new Error('key issue printed no cle');
      usedKeys.push(cle);
      const isOkVerdict = (answer: TimedAnswer): boolean => {
        if (answer.status !== 200) return false;
        const envelope: unknown = JSON.parse(answer.text);
        return (
          verifyEnvelope(envelope, [serve.publicKey], { hote: HOST, produit: PRODUIT }) &&
          isRecord(envelope) &&
          isRecord(envelope.donnees) &&
          envelope.donnees.ok === true
        );
      };

      // Up: the load gets ok verdicts (the first call binds the domain, the rest find it bound).
      const load = startLoad(serve.url, cle, 2000);
      await until(() => load.answers.length >= 40, 10_000);
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);

      // Down, under load.
      const haltingAt = performance.now();
      await db.halt();
      const haltedAt = performance.now();
      await until(() => load.answers.filter((answer) => answer.sentAt > haltedAt).length >= 60, 8_000);
      const health = await send(serve.url, { method: 'GET', path: '/healthz' });
      expect(health.status).toBe(503);
      expect(JSON.parse(health.text)).toEqual({ status: 'error', store: 'down' });
      const answers = await load.stop();

      const before = answers.filter((answer) => answer.sentAt + answer.ms < haltingAt);
      const during = answers.filter((answer) => answer.sentAt > haltedAt);
      expect(before.length).toBeGreaterThanOrEqual(40);
      expect(before.every(isOkVerdict)).toBe(true);
      expect(during.length).toBeGreaterThanOrEqual(60);
      for (const answer of during) expectProblem5xx(answer);
      // The calls in flight while PostgreSQL stopped: a verdict or a 5xx problem, never anything else.
      for (const answer of answers.filter((a) => !before.includes(a) && !during.includes(a))) {
        if (!isOkVerdict(answer)) expectProblem5xx(answer);
      }
      const slowest = Math.max(...answers.map((answer) => answer.ms));
      expect(slowest).toBeLessThanOrEqual(MAX_WAIT_MS);

      // Back: the same process answers ok verdicts again by itself.
      await db.resume();
      const resumedAt = performance.now();
      let recovered: TimedAnswer | undefined;
      for (let n = 0; recovered === undefined && performance.now() - resumedAt < MAX_RECOVERY_MS + 1000; n++) {
        const answer = await postVerdict(
          serve.url,
          { cle, url: `https://${HOST}/`, produit: PRODUIT },
          benchmarkAddress(10_000 + n),
        );
        if (answer.status === 200) recovered = answer;
        else {
          expectProblem5xx(answer);
          await sleep(100);
        }
      }
      const recoveryMs = performance.now() - resumedAt;
      // The outage's figures, printed (a report, not an assertion of speed).
      console.info(
        `postgres-faults: ${before.length} ok before, ${during.length} answers during the outage (all 5xx problems), slowest ${Math.round(slowest)} ms, recovered in ${Math.round(recoveryMs)} ms after the restart`,
      );
      expect(recovered !== undefined && isOkVerdict(recovered)).toBe(true);
      expect(recoveryMs).toBeLessThanOrEqual(MAX_RECOVERY_MS);
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      // The same process all along: it never exited (no restart).
      expect(serve.child.exitCode).toBe(null);
    } finally {
      expect(await stopAll([serve])).toEqual([0]);
    }
  });

  it('never writes a key in any output', () => {
    expect(usedKeys.length).toBeGreaterThan(0);
    expect(linesHolding([...allOutput.stdout, ...allOutput.stderr], usedKeys.flatMap(keySpellings))).toEqual([]);
  });
});
