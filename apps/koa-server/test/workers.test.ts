import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@licence/pg-cluster';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, runCli, spawnServe } from './cli-process.js';
import type { ServeProcess } from './cli-process.js';
import { benchmarkAddress, PRODUCT_UA, parseJson, postVerdict } from './serve-processes.js';
import { countById, stringField, waitUntil } from './webhook-e2e.js';
import { createWebhookReceiver } from './webhook-receiver.js';

/**
 * `licence serve` with LICENCE_WORKERS=2 through the real CLI (README "Workers"), on SQLite and on
 * PostgreSQL: the guarantees of one process hold with two workers. The rate limit stays exact
 * across them, a killed worker is replaced, SIGTERM drains every one, the purge and the webhook
 * deliverer run once. Which worker did what: every worker's log line carries `worker` (its id).
 * The binding race with workers is in multi-process-race.test.ts.
 */

const postgres = await throwawayPostgres('koa-server workers on PostgreSQL');

const root = mkdtempSync(join(tmpdir(), 'licence-workers-'));
const usedKeys: string[] = [];

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

type Entry = Record<string, unknown>;

const entries = (serve: ServeProcess): Entry[] => serve.logs.map(parseJson);
const withMsg = (serve: ServeProcess, msg: string): Entry[] => entries(serve).filter((entry) => entry.msg === msg);

/** The pids the primary logged as it forked its workers, in order. */
const forkedPids = (serve: ServeProcess): number[] =>
  withMsg(serve, 'worker started').map((entry) => Number(entry.pid));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** How many `/api/licence` request lines each worker wrote, by worker id. */
function requestsByWorker(serve: ServeProcess): Map<number, number> {
  const counts = new Map<number, number>();
  for (const entry of withMsg(serve, 'request').filter((line) => line.route === '/api/licence')) {
    counts.set(Number(entry.worker), (counts.get(Number(entry.worker)) ?? 0) + 1);
  }
  return counts;
}

/** SIGTERM to the primary: exit 0, and no worker left. */
async function stopAndCheck(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM');
  expect(await serve.exited).toBe(0);
  expect(forkedPids(serve).filter(isAlive)).toEqual([]);
}

function workersSuite(name: string, skip: boolean, storeEnv: (cwd: string) => Promise<Record<string, string>>) {
  describe.skipIf(skip)(`licence serve with LICENCE_WORKERS=2 on ${name}`, () => {
    /** The store's env (for the CLI's admin commands too) and the server's. */
    async function setUp(extra: Record<string, string> = {}) {
      const cwd = mkdtempSync(join(root, 'serve-'));
      const env = await storeEnv(cwd);
      const serve = await spawnServe({ cwd, env: { ...env, LICENCE_WORKERS: '2', TRUST_PROXY: '1', ...extra } });
      return { cwd, env, serve };
    }

    it('rate limit: 40 concurrent calls from one address over 40 connections: exactly 30 answered, 10 refused 429 with Retry-After', async () => {
      const { serve } = await setUp();
      expect(serve.banner).toContain('workers: 2 processes (LICENCE_WORKERS)\n');
      expect(withMsg(serve, 'licence service started')).toEqual([expect.objectContaining({ workers: 2 })]);
      try {
        const body = { cle: 'ABCD-EFGH-JKLM-NPQR', url: 'https://exemple.fr/', produit: 'theme' };
        const answers = await Promise.all(
          Array.from({ length: 40 }, () => postVerdict(serve.url, body, benchmarkAddress(7))),
        );
        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(30);
        const refused = answers.filter((answer) => answer.status === 429);
        expect(refused).toHaveLength(10);
        for (const answer of refused) expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      } finally {
        await stopAndCheck(serve);
      }
      // Both workers answered some of them (the cluster spreads connections round robin).
      const counts = requestsByWorker(serve);
      expect([...counts.keys()].sort()).toEqual([1, 2]);
      expect([...counts.values()].reduce((sum, count) => sum + count, 0)).toBe(40);
    });

    it('restart: a worker killed with SIGKILL, or stopped with SIGTERM alone, is replaced; the service keeps answering, still 2 workers', async () => {
      const { serve } = await setUp();
      try {
        const [victim, survivor] = forkedPids(serve);
        if (victim === undefined || survivor === undefined) throw new Error('no worker pids logged');
        process.kill(victim, 'SIGKILL');
        await waitUntil('the exit line', () => withMsg(serve, 'worker exited; starting another').length === 1, 15_000);
        expect(withMsg(serve, 'worker exited; starting another')).toEqual([
          expect.objectContaining({ worker: 1, pid: victim, code: null, signal: 'SIGKILL', level: 40 }),
        ]);
        // The survivor answers while the replacement starts.
        const during = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            postVerdict(serve.url, { cle: 'x', url: 'exemple.fr' }, benchmarkAddress(i)),
          ),
        );
        expect(during.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
        await waitUntil('the replacement listening', () => withMsg(serve, 'worker listening').length === 3, 15_000);
        const pids = forkedPids(serve);
        expect(pids).toHaveLength(3);
        expect(pids.filter(isAlive)).toEqual([survivor, pids[2]]);
        const after = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            postVerdict(serve.url, { cle: 'x', url: 'exemple.fr' }, benchmarkAddress(10 + i)),
          ),
        );
        expect(after.every((answer) => answer.status === 200)).toBe(true);
        // SIGTERM to one worker alone: it drains and exits 0, and the primary replaces it too.
        process.kill(survivor, 'SIGTERM');
        await waitUntil(
          'the second exit line',
          () => withMsg(serve, 'worker exited; starting another').length === 2,
          15_000,
        );
        expect(withMsg(serve, 'worker exited; starting another')[1]).toMatchObject({
          pid: survivor,
          code: 0,
          signal: null,
        });
        await waitUntil(
          'the second replacement listening',
          () => withMsg(serve, 'worker listening').length === 4,
          15_000,
        );
        expect(forkedPids(serve).filter(isAlive)).toHaveLength(2);
      } finally {
        await stopAndCheck(serve);
      }
      // The replacement (worker 3) answered some of the calls made after it listened.
      expect(requestsByWorker(serve).get(3)).toBeGreaterThan(0);
    });

    it('shutdown: requests in flight when SIGTERM reaches the primary all complete with 200; exit 0; no worker left', async () => {
      // debug: each worker logs 'request received' once it reads a request.
      const { serve } = await setUp({ LOG_LEVEL: 'debug' });
      const target = new URL(`${serve.url}/api/licence`);
      const body = JSON.stringify({ cle: 'x', url: 'exemple.fr' });
      const workersDraining = waitUntil(
        'both workers shutting down',
        () => withMsg(serve, 'shutting down').filter((entry) => entry.worker !== undefined).length === 2,
        15_000,
      );
      const answers = Array.from(
        { length: 6 },
        (_, i) =>
          new Promise<number>((resolve, reject) => {
            const req = request(
              {
                host: target.hostname,
                port: target.port,
                path: target.pathname,
                method: 'POST',
                // One connection per request, closed after its answer: the drain need not wait for idle keep-alives.
                agent: false,
                headers: {
                  'User-Agent': PRODUCT_UA,
                  'Content-Type': 'application/json',
                  'Content-Length': Buffer.byteLength(body),
                  'X-Forwarded-For': benchmarkAddress(i),
                },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              },
            );
            req.on('error', reject);
            // Half the body now; the rest once both workers are draining.
            req.write(body.slice(0, 10));
            req.flushHeaders();
            void workersDraining.then(() => req.end(body.slice(10)));
          }),
      );
      await waitUntil('6 requests being read', () => withMsg(serve, 'request received').length === 6, 15_000);
      // Both workers hold some of them.
      expect(new Set(withMsg(serve, 'request received').map((entry) => entry.worker)).size).toBe(2);
      serve.child.kill('SIGTERM');
      expect(await Promise.all(answers)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await serve.exited).toBe(0);
      expect(forkedPids(serve).filter(isAlive)).toEqual([]);
      expect(withMsg(serve, 'licence service stopped').filter((entry) => entry.worker === undefined)).toHaveLength(1);
    });

    it('once: the purge runs in the primary only, and each webhook event is delivered exactly once', async () => {
      const { serve, cwd, env } = await setUp({ LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' });
      const receiver = createWebhookReceiver(await freePort());
      await receiver.listen();
      const cli = (args: readonly string[]) =>
        runCli(args, { cwd, env: { ...env, LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' } });
      try {
        expect((await cli(['product', 'add', 'theme', '--author', 'atelier', '--name', 'Theme'])).code).toBe(0);
        const added = await cli(['webhook', 'add', receiver.url, '--events', 'key.issued', '--json']);
        expect(added.code).toBe(0);
        receiver.trust(stringField(parseJson(added.stdout), 'secret'));
        for (let i = 0; i < 3; i += 1) {
          const issued = await cli(['key', 'issue', '--produit', 'theme', '--kind', 'buyer', '--json']);
          expect(issued.code).toBe(0);
          usedKeys.push(stringField(parseJson(issued.stdout), 'cle'));
        }
        await waitUntil('3 deliveries', () => receiver.received.length >= 3, 15_000);
        // Two more deliverer rounds (1 s each): a second deliverer would have sent them again by now.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect(receiver.rejected).toEqual([]);
        expect([...countById(receiver.received.map((hook) => hook.id)).values()]).toEqual([1, 1, 1]);
      } finally {
        await receiver.close();
        await stopAndCheck(serve);
      }
      const delivered = withMsg(serve, 'webhook delivered');
      expect(delivered).toHaveLength(3);
      expect(delivered.every((entry) => entry.worker === undefined)).toBe(true);
      // The purge ran at start, once, in the primary (its one line, without `worker`).
      expect(entries(serve).filter((entry) => entry.action === 'purge')).toEqual([
        expect.not.objectContaining({ worker: expect.anything() }),
      ]);
    });
  });
}

workersSuite('SQLite', false, (cwd) => Promise.resolve({ LICENCE_DATA_DIR: join(cwd, 'data') }));
workersSuite('PostgreSQL', !postgres.available, async () => ({
  DATABASE_URL: await postgres.cluster().createDatabase(),
}));

describe('licence serve with LICENCE_WORKERS=2: start errors and crash loops', () => {
  it('a port already taken: exit 1 and the same one line as one process, no worker left', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    try {
      const cwd = mkdtempSync(join(root, 'taken-'));
      const env = { PORT: String(address.port), LICENCE_DATA_DIR: join(cwd, 'data') };
      const single = await runCli(['serve'], { cwd, env });
      const workers = await runCli(['serve'], { cwd, env: { ...env, LICENCE_WORKERS: '2' } });
      expect(single.code).toBe(1);
      expect(single.stderr).toMatch(/^licence: PORT: [^\n]+\n$/);
      expect(workers).toMatchObject({ code: 1, stderr: single.stderr });
      // The log names the workers it forked; none is left.
      const pids = workers.stdout
        .split('\n')
        .filter((line) => line.includes('"worker started"'))
        .map((line) => Number(parseJson(line).pid));
      expect(pids).toHaveLength(2);
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      taken.close();
    }
  });

  it('a bad LICENCE_WORKERS stops the start with one line', async () => {
    const result = await runCli(['serve'], { cwd: root, env: { LICENCE_WORKERS: 'many' } });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'licence: LICENCE_WORKERS: expected a whole number from 1 to 64 or "auto", got "many"\n',
    });
  });

  it('workers that keep dying right after their start: the primary stops with one line, exit 1', async () => {
    const cwd = mkdtempSync(join(root, 'crash-'));
    const serve = await spawnServe({ cwd, env: { LICENCE_DATA_DIR: join(cwd, 'data'), LICENCE_WORKERS: '2' } });
    let stderr = '';
    serve.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Kill each newest worker as soon as it is forked, until the primary gives up.
    let exited = false;
    void serve.exited.then(() => {
      exited = true;
    });
    let killed = 0;
    while (!exited && killed < 10) {
      const pid = forkedPids(serve).at(-1);
      if (pid !== undefined && isAlive(pid)) {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      await waitUntil('the next fork or the end', () => exited || forkedPids(serve).length > killed + 1, 15_000);
    }
    expect(await serve.exited).toBe(1);
    expect(stderr).toBe(
      'licence: LICENCE_WORKERS: 5 workers in a row exited within 5 s of their start; the service stops (see the log lines above)\n',
    );
    expect(forkedPids(serve).filter(isAlive)).toEqual([]);
  });

  it('never writes a key in any output', () => {
    expect(linesHolding([...allOutput.stdout, ...allOutput.stderr], usedKeys.flatMap(keySpellings))).toEqual([]);
  });
});
