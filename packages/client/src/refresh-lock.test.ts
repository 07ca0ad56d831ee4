import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, isAlive, lockExists, readHolder } from './refresh-lock.js';

const STALE_MS = 16_000;
let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-lock-'));
  path = join(dir, 'licence-x.json.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has just exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

function age(file: string, seconds: number): void {
  const past = new Date(Date.now() - seconds * 1000);
  utimesSync(file, past, past);
}

describe('acquireLock', () => {
  it('creates the lock (mode 0600, naming its holder), refuses a second taker, and releases', async () => {
    const lock = await acquireLock(path, { staleMs: STALE_MS });
    expect(lock).not.toBeNull();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const holder = await readHolder(path);
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(holder?.token).toMatch(/^[0-9a-f]{24}$/);
    expect(await lockExists(path)).toBe(true);

    expect(await acquireLock(path, { staleMs: STALE_MS })).toBeNull();
    await lock?.release();
    expect(await lockExists(path)).toBe(false);
    expect(await readHolder(path)).toBeNull();
    const again = await acquireLock(path, { staleMs: STALE_MS });
    expect(again).not.toBeNull();
    await again?.release();
  });

  it('takes over the lock of a process of this host that is gone', async () => {
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'crashed' }));
    const lock = await acquireLock(path, { staleMs: STALE_MS });
    expect(lock).not.toBeNull();
    expect((await readHolder(path))?.pid).toBe(process.pid);
    // Nothing left aside.
    expect(readdirSync(dir)).toEqual(['licence-x.json.lock']);
    await lock?.release();
  });

  it('leaves a recent lock of a live process alone, on this host or another', async () => {
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), token: 'live' }));
    expect(await acquireLock(path, { staleMs: STALE_MS })).toBeNull();
    // Another host: its pid means nothing here, only age counts.
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'another-host', token: 'elsewhere' }));
    expect(await acquireLock(path, { staleMs: STALE_MS })).toBeNull();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ token: 'elsewhere' });
  });

  it('takes over a lock older than staleMs, whoever holds it', async () => {
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: 'another-host', token: 'hung' }));
    age(path, 17);
    const lock = await acquireLock(path, { staleMs: STALE_MS });
    expect(lock).not.toBeNull();
    await lock?.release();
  });

  it('judges age on the injected real-time clock against the file time', async () => {
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: 'another-host', token: 'hung' }));
    expect(await acquireLock(path, { staleMs: STALE_MS, now: () => Date.now() + 10_000 })).toBeNull();
    expect(await acquireLock(path, { staleMs: STALE_MS, now: () => Date.now() + 17_000 })).not.toBeNull();
  });

  it('reads an empty lock (its holder is between open and write) as held until it is old', async () => {
    writeFileSync(path, '');
    expect(await readHolder(path)).toBeNull();
    expect(await lockExists(path)).toBe(true);
    expect(await acquireLock(path, { staleMs: STALE_MS })).toBeNull();
    age(path, 17);
    expect(await acquireLock(path, { staleMs: STALE_MS })).not.toBeNull();
  });

  it('gives a stale lock to exactly one of several takers at once', async () => {
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'crashed' }));
    const locks = await Promise.all(Array.from({ length: 8 }, () => acquireLock(path, { staleMs: STALE_MS })));
    expect(locks.filter((lock) => lock !== null)).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['licence-x.json.lock']);
  });

  it("a holder taken over as stale does not remove its successor's lock", async () => {
    const first = await acquireLock(path, { staleMs: STALE_MS });
    age(path, 17);
    const second = await acquireLock(path, { staleMs: STALE_MS });
    expect(second).not.toBeNull();
    const successor = (await readHolder(path))?.token;
    await first?.release();
    expect((await readHolder(path))?.token).toBe(successor);
    await second?.release();
    expect(existsSync(path)).toBe(false);
  });
});

describe('isAlive', () => {
  it('knows this process, and a process that is gone', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(deadPid())).toBe(false);
  });
});
