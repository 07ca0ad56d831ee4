import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './open-sqlite-store.js';
import { insertedKeyId, themeKey } from '../test/theme-key.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const bindWorker = join(packageDir, 'test', 'bind-worker.mjs');
const logWorker = join(packageDir, 'test', 'log-worker.mjs');
// The children are plain Node, which cannot run TypeScript: the CURRENT sources are bundled here
// for them, so the test never runs a stale or missing dist/ and needs no manual build step.
// Under node_modules, so it is git-ignored and resolves better-sqlite3 like the package does.
const bundleDir = join(packageDir, 'node_modules', '.cache', 'store-sqlite-cross-process');

type WorkerResult = 'bound' | 'already' | 'full' | 'logged' | `error: ${string}` | string;

/**
 * The claim worker (plain JavaScript, written into the test's folder): claims at a fixed `now`
 * until nothing is pending, holds each claim a few milliseconds as an HTTP attempt would, then
 * records it delivered. It answers `<delivery id> <endpoint id> <event id> <claimed at, ms>` per
 * claim. argv: <built module> <database file> <now> <hold ms>
 */
const CLAIM_WORKER = `
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
const [modulePath, file, now, hold] = process.argv.slice(2);
const { openSqliteStore } = await import(pathToFileURL(modulePath).href);
const store = openSqliteStore({ file });
const at = Number(now);

async function pending() {
  const endpoints = await store.listWebhookEndpoints(null);
  const lists = await Promise.all(endpoints.map((e) => store.listWebhookDeliveries(e.id, 100000)));
  return lists.flat().some((d) => d.status === 'pending');
}

async function claimAll() {
  const results = [];
  for (;;) {
    const claimed = await store.claimWebhookDeliveries(at, at + 3600, 5);
    const claimedAt = performance.timeOrigin + performance.now();
    if (claimed.length === 0) {
      if (!(await pending())) break;
      await sleep(2);
      continue;
    }
    results.push(...claimed.map((c) => [c.id, c.endpointId, c.eventId, claimedAt].join(' ')));
    await sleep(Number(hold));
    for (const c of claimed) {
      await store.finishWebhookAttempt(c.id, { at, status: 204, error: null, durationMs: 1 }, { status: 'delivered' });
    }
  }
  await store.close();
  return results;
}

process.once('message', () => {
  claimAll().then(
    (results) => process.send({ results }, () => process.disconnect()),
    (error) => process.send({ error: String(error) }, () => process.disconnect()),
  );
});
process.send({ ready: true });
`;

/** One claim as the worker answers it. */
interface Claim {
  readonly id: string;
  readonly endpoint: string;
  readonly event: number;
  readonly at: number;
}

function parseClaim(line: string): Claim {
  const [id = '', endpoint = '', event = '', at = ''] = line.split(' ');
  return { id, endpoint, event: Number(event.replace('msg_', '')), at: Number(at) };
}

interface WorkerMessage {
  readonly ready?: boolean;
  readonly results?: WorkerResult[];
  readonly error?: string;
}

/** Forks one worker; `ready` and `done` both fail at once if it dies, so the test never hangs. */
function start(
  worker: string,
  args: string[],
): { child: ChildProcess; ready: Promise<void>; done: Promise<WorkerResult[]> } {
  const child = fork(worker, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const died = new Promise<never>((_, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      reject(new Error(`worker exited with code ${String(code)} before answering`));
    });
  });
  const ready = new Promise<void>((resolve) => {
    child.on('message', (message: WorkerMessage) => {
      if (message.ready === true) {
        resolve();
      }
    });
  });
  const done = new Promise<WorkerResult[]>((resolve, reject) => {
    child.on('message', (message: WorkerMessage) => {
      if (message.results !== undefined) {
        resolve(message.results);
      } else if (message.ready !== true) {
        reject(new Error(`worker failed: ${message.error ?? 'no detail'}`));
      }
    });
  });
  const raced = { child, ready: Promise.race([ready, died]), done: Promise.race([done, died]) };
  // Whoever awaits these still gets the rejection; this only keeps Node from reporting the ones
  // nobody awaits (the exit after a normal answer, the sibling of a worker that failed first).
  for (const promise of [died, raced.ready, raced.done]) {
    promise.catch(() => undefined);
  }
  return raced;
}

describe('two processes on one file (docs/protocol.md#verdict: binding is atomic; #activity; #webhooks)', () => {
  let dir: string;
  let bundle: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-cross-process-'));
    await build({
      entry: { index: join(packageDir, 'src', 'index.ts') },
      format: ['esm'],
      outDir: bundleDir,
      external: ['better-sqlite3', '@licence/core', '@licence/service'],
      dts: false,
      clean: true,
      config: false,
      silent: true,
    });
    bundle = join(bundleDir, 'index.js');
  }, 60_000);

  afterAll(async () => {
    // Only when a test failed midway: stop the workers this file started, by their handle.
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('binds exactly 3 domains when two processes race 50 domains each on a 3-site key', async () => {
    const file = join(dir, 'licence.db');
    const setup = openSqliteStore({ file });
    await setup.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const keyId = await insertedKeyId(setup, themeKey('f'.repeat(64), { sites: 3 }));
    await setup.close();

    const a = start(bindWorker, [bundle, file, keyId, 'a', '50']);
    const b = start(bindWorker, [bundle, file, keyId, 'b', '50']);
    children.push(a.child, b.child);
    await Promise.all([a.ready, b.ready]);
    a.child.send('go');
    b.child.send('go');
    const [fromA, fromB] = await Promise.all([a.done, b.done]);
    const results = [...fromA, ...fromB];

    expect(results.filter((r) => r.startsWith('error'))).toEqual([]);
    expect(results.filter((r) => r === 'bound')).toHaveLength(3);
    expect(results.filter((r) => r === 'full')).toHaveLength(97);

    const check = openSqliteStore({ file });
    const key = await check.findKeyById(keyId);
    await check.close();
    expect(key?.domains).toHaveLength(3);
    expect(new Set(key?.domains.map((d) => d.domain)).size).toBe(3);
  }, 60_000);

  it('counts every verdict when two processes log 200 each for the same product and day', async () => {
    const file = join(dir, 'activity.db');
    const setup = openSqliteStore({ file });
    await setup.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const keyId = await insertedKeyId(setup, themeKey('d'.repeat(64)));
    await setup.close();

    const a = start(logWorker, [bundle, file, keyId, '200']);
    const b = start(logWorker, [bundle, file, keyId, '200']);
    children.push(a.child, b.child);
    await Promise.all([a.ready, b.ready]);
    a.child.send('go');
    b.child.send('go');
    const results = (await Promise.all([a.done, b.done])).flat();
    expect(results.filter((r) => r !== 'logged')).toEqual([]);

    const check = openSqliteStore({ file });
    const day = Math.floor(1_790_000_000 / 86400);
    const counts = await check.activity('theme', day, day);
    await check.close();
    expect([...counts].sort((x, y) => x.outcome.localeCompare(y.outcome))).toEqual([
      { day, outcome: 'essai', count: 100 },
      { day, outcome: 'ok', count: 300 },
    ]);
  }, 60_000);

  it('never claims one webhook delivery twice when two processes claim 600 at once (docs/protocol.md#webhooks)', async () => {
    const file = join(dir, 'claim.db');
    const worker = join(dir, 'claim-worker.mjs');
    await writeFile(worker, CLAIM_WORKER);
    const now = 1_790_000_000;
    const setup = openSqliteStore({ file });
    await setup.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    for (let i = 0; i < 30; i += 1) {
      const secret = `whsec_test_${i}`;
      const hook = { id: `wh_${i}`, author: null, url: `https://shop.example/${i}`, createdAt: 1, secret };
      await setup.addWebhookEndpoint({ ...hook, events: ['key.issued'] });
    }
    for (let i = 0; i < 20; i += 1) {
      const event = {
        id: `msg_${i}`,
        type: 'key.issued',
        produit: 'theme',
        at: now,
        body: '{}',
        dedupe: null,
      } as const;
      expect(await setup.addWebhookEvent(event)).toBe('added');
    }
    await setup.close();

    const a = start(worker, [bundle, file, String(now), '3']);
    const b = start(worker, [bundle, file, String(now), '3']);
    children.push(a.child, b.child);
    await Promise.all([a.ready, b.ready]);
    a.child.send('go');
    b.child.send('go');
    const [fromA, fromB] = await Promise.all([a.done, b.done]);
    const claims = [...fromA, ...fromB].map(parseClaim);

    expect(claims.filter((claim) => claim.id.startsWith('error'))).toEqual([]);
    // Every delivery claimed exactly once, and by both processes between them (they did race).
    expect(claims).toHaveLength(600);
    expect(new Set(claims.map((claim) => claim.id)).size).toBe(600);
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB.length).toBeGreaterThan(0);
    // One claim at a time per endpoint: its deliveries were claimed in event order.
    for (let i = 0; i < 30; i += 1) {
      const ofEndpoint = claims.filter((claim) => claim.endpoint === `wh_${i}`).sort((x, y) => x.at - y.at);
      expect(ofEndpoint.map((claim) => claim.event)).toEqual(Array.from({ length: 20 }, (_, j) => j));
    }
  }, 120_000);

  it('waits for another process holding the write lock (busy_timeout) instead of failing', async () => {
    const file = join(dir, 'locked.db');
    const setup = openSqliteStore({ file });
    await setup.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const keyId = await insertedKeyId(setup, themeKey('e'.repeat(64)));
    await setup.close();

    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    const child = start(bindWorker, [bundle, file, keyId, 'locked', '1']);
    children.push(child.child);
    await child.ready;
    child.child.send('go');
    let finished = false;
    void child.done.then(() => {
      finished = true;
    });
    // Not a timing assertion: while this connection holds the lock the worker CANNOT finish,
    // however long it is given; the pause only lets it reach its wait.
    await sleep(300);
    expect(finished).toBe(false);
    holder.exec('COMMIT');
    holder.close();
    expect(await child.done).toEqual(['bound']);
  }, 60_000);
});
