import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFileName } from '../src/cache-file.js';
import { Licence } from '../src/licence.js';
import { DAY, licenceOptions, PRODUIT, serverAndFolderEachTest } from './end-to-end-setup.js';
import type { LicenceServer } from './licence-server.js';

/**
 * docs/protocol.md#refresh-lock, only one process refreshes at a time, with real processes: each
 * runs `node` on a script that imports the built client (dist/, built by the global setup), on one
 * cache folder, against the real Koa server started here, which counts the verdict requests
 * reaching it.
 */

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'valide-child.mjs');
const HOST = 'boutique.exemple.fr';

interface ChildAnswer {
  readonly runs: boolean;
  readonly state: string;
  readonly motif: string;
}

let server: LicenceServer;
let dir: string;
const children = new Set<ChildProcess>();

serverAndFolderEachTest('licence-processes-', (setup) => {
  ({ server, dir } = setup);
});
// Registered after the server's: vitest runs after-each hooks last first, so the children die
// before the server they talk to stops.
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function options(cle: string) {
  return licenceOptions(server, join(dir, 'cache'), cle, HOST);
}

function startChild(config: unknown): { child: ChildProcess; done: Promise<ChildAnswer> } {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<ChildAnswer>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      if (code === 0) resolve(JSON.parse(out) as ChildAnswer);
      else reject(new Error(`child exited with ${String(code)}: ${err}`));
    });
  });
  return { child, done };
}

describe('many processes, one cache', () => {
  it('20 processes calling valide() at once on a stale cache: one call reaches the server', async () => {
    const cle = await server.issueKey(PRODUIT);
    const first = new Licence({ ...options(cle), clock: server.clock });
    expect(await first.valide()).toBe(true);
    server.clock.advance(DAY + 60);
    // Hold each verdict request a while, so the lock is held while the others arrive.
    server.setDelay(400);
    const calls = server.calls();

    const barrier = join(dir, 'barrier');
    mkdirSync(barrier);
    const runs = Array.from({ length: 20 }, () =>
      startChild({ options: options(cle), nowMs: server.clock.now(), barrier }),
    );
    await expect.poll(() => readdirSync(barrier).length, { timeout: 20_000, interval: 20 }).toBe(20);
    writeFileSync(join(barrier, 'go'), '');
    const answers = await Promise.all(runs.map((run) => run.done));

    expect(server.calls() - calls).toBe(1);
    expect(answers.every((answer) => answer.runs)).toBe(true);
    const states = answers.map((answer) => answer.state);
    expect(states.filter((state) => state === 'refreshed')).toHaveLength(1);
    // The others kept the cached verdict while it was refreshed, or read the new one after.
    expect(states.every((state) => ['refreshed', 'grace', 'fresh'].includes(state))).toBe(true);
    expect(existsSync(join(dir, 'cache', `${await cacheFileName(PRODUIT, cle.replace(/-/g, ''), HOST)}.lock`))).toBe(
      false,
    );
  });

  it('a refresher killed while it holds the lock: the next process takes the lock over and calls', async () => {
    const cle = await server.issueKey(PRODUIT);
    const first = new Licence({ ...options(cle), clock: server.clock });
    await first.valide();
    server.clock.advance(DAY + 60);
    server.setDelay(60_000);
    const calls = server.calls();
    const { child, done } = startChild({ options: options(cle), nowMs: server.clock.now() });
    // Its request reached the server: it holds the lock. Then it dies without releasing it.
    await expect.poll(() => server.calls(), { timeout: 20_000, interval: 20 }).toBe(calls + 1);
    const lockFile = join(dir, 'cache', `${await cacheFileName(PRODUIT, cle.replace(/-/g, ''), HOST)}.lock`);
    expect(existsSync(lockFile)).toBe(true);
    child.kill('SIGKILL');
    await expect(done).rejects.toThrow('child exited');
    expect(existsSync(lockFile)).toBe(true);

    server.setDelay(0);
    const next = new Licence({ ...options(cle), clock: server.clock });
    expect(await next.valide()).toBe(true);
    expect(next.verdict?.state).toBe('refreshed');
    expect(server.calls()).toBe(calls + 2);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a process with no cache at all waits for the refreshing one instead of calling too', async () => {
    const cle = await server.issueKey(PRODUIT);
    // The refresher's call is held by the server until the waiter has started: the waiter finds
    // the lock held, whatever the machine's load.
    const release = server.hold();
    const refresher = startChild({ options: options(cle), nowMs: server.clock.now() });
    await expect.poll(() => server.calls(), { timeout: 20_000, interval: 10 }).toBe(1);
    const waiter = new Licence({ ...options(cle), clock: server.clock });
    const waited = waiter.valide();
    release();
    expect(await waited).toBe(true);
    expect(waiter.verdict?.state).toBe('fresh');
    expect(await refresher.done).toMatchObject({ runs: true, state: 'refreshed' });
    expect(server.calls()).toBe(1);
  });
});
