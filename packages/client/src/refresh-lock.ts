import type { FileHandle } from 'node:fs/promises';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isErrno } from './cache-file.js';

/**
 * The lock file of docs/protocol.md#refresh-lock (only one process refreshes at a time): whoever
 * creates it exclusively (O_EXCL, atomic on local file systems and NFSv3+) makes the call; the
 * others keep the cached verdict meanwhile.
 *
 * A holder that crashed cannot hold it for ever. The lock records its holder's pid, host and a
 * random token; it is stale when its holder's process is gone (same host: `kill(pid, 0)` says
 * ESRCH) or when it is older than `staleMs` (any host: a holder makes one call of at most the
 * timeout, then writes a few hundred bytes). One taker at a time judges a lock: it first creates
 * `<lock>.takeover` exclusively, and the others leave it to that one. The taker renames a stale
 * lock aside (atomic) and checks it moved the very file it judged (same inode) before it tries to
 * create its own. Without the takeover file, two takers judging the same stale lock at once could
 * leave the path empty for an instant while one of them gave back the other's new lock, and a
 * third could create one there: two holders. A takeover file left by a crash goes stale by age,
 * like a lock.
 */

export interface LockOptions {
  /** A lock whose file is older than this (milliseconds) is stale. */
  readonly staleMs: number;
  /**
   * Real time in milliseconds (default `Date.now`). Locks are about processes, not verdicts: their
   * age is measured against the file system's modification times, never on the injected clock.
   */
  readonly now?: () => number;
}

export interface RefreshLock {
  /** Removes the lock if it is still this holder's (a lock taken over as stale is left alone). */
  release(): Promise<void>;
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

/** Takes the lock at `path`, or returns null when a live holder has it. */
export async function acquireLock(path: string, options: LockOptions): Promise<RefreshLock | null> {
  const token = randomToken();
  const content = JSON.stringify({ pid: process.pid, host: hostname(), token });
  if (await tryCreate(path, content)) return holding(path, token);
  if (!(await takeOverIfStale(path, options, token))) return null;
  // One more try only: if someone else created a lock in between, they hold it.
  return (await tryCreate(path, content)) ? holding(path, token) : null;
}

/** Who holds the lock at `path`, as far as its content says, or null (no lock, or unreadable content). */
export async function readHolder(path: string): Promise<Holder | null> {
  try {
    return parseHolder(await readFile(path, 'utf8'));
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
}

/** Whether a lock file is there at all (one being written has no content yet, but is held). */
export async function lockExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

function holding(path: string, token: string): RefreshLock {
  return {
    release: async () => {
      const holder = await readHolder(path);
      if (holder?.token === token) await unlink(path).catch(ignoreMissing);
    },
  };
}

async function tryCreate(path: string, content: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    await handle.close();
    // A lock without its holder would only block others until it goes stale: remove it.
    await unlink(path).catch(ignoreMissing);
    throw error;
  }
  await handle.close();
  return true;
}

/**
 * True when the lock at `path` was stale and is gone (or was already gone). Only the taker holding
 * `<path>.takeover` judges; the others answer false (a live holder, as far as they know).
 */
async function takeOverIfStale(path: string, options: LockOptions, token: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  if (!(await tryCreate(guard, token))) {
    await removeIfOlder(guard, options);
    return false;
  }
  try {
    return await judgeAndMoveAside(path, options, token);
  } finally {
    await unlink(guard).catch(ignoreMissing);
  }
}

/** Removes the file at `path` when it is older than `staleMs` (a takeover file its taker left by crashing). */
async function removeIfOlder(path: string, options: LockOptions): Promise<void> {
  const now = options.now ?? Date.now;
  try {
    if (now() - (await stat(path)).mtimeMs > options.staleMs) await unlink(path);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
}

/** The takeover itself, under the takeover file: true when the stale lock at `path` is gone. */
async function judgeAndMoveAside(path: string, options: LockOptions, token: string): Promise<boolean> {
  let text: string;
  let before: { readonly ino: number; readonly dev: number; readonly mtimeMs: number };
  try {
    before = await stat(path);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return true;
    throw error;
  }
  const now = options.now ?? Date.now;
  if (!isStale(parseHolder(text), now() - before.mtimeMs, options.staleMs)) return false;

  const aside = `${path}.${token}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    // Another process took it over first.
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
  const moved = await stat(aside);
  const same = moved.ino === before.ino && moved.dev === before.dev;
  if (!same) {
    // We moved a lock created after we judged the old one: give it back, unless yet another
    // process has created one meanwhile (then link fails with EEXIST and that one holds).
    await link(aside, path).catch((error: unknown) => {
      if (!isErrno(error, 'EEXIST')) throw error;
    });
  }
  await unlink(aside).catch(ignoreMissing);
  return same;
}

function isStale(holder: Holder | null, ageMs: number, staleMs: number): boolean {
  if (ageMs > staleMs) return true;
  // A lock being written has no content yet: only its age can condemn it.
  return holder !== null && holder.host === hostname() && !isAlive(holder.pid);
}

/** Whether a process of this host is alive: signal 0 checks without sending anything (kill(2)). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user. Only ESRCH says it is gone.
    return !isErrno(error, 'ESRCH');
  }
}

function parseHolder(text: string): Holder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // An empty or torn lock file (its creator is between open and write, or crashed there).
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, host, token } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof host !== 'string' || typeof token !== 'string') return null;
  return { pid, host, token };
}

function ignoreMissing(error: unknown): void {
  // Already gone is the outcome wanted; anything else is a real fault.
  if (!isErrno(error, 'ENOENT')) throw error;
}

function randomToken(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}
