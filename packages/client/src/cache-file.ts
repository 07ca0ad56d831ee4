import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import type { CacheRecord } from '@licence/core';

/**
 * The cache file of docs/protocol.md#cache: one per (product, key, host), written atomically (temp
 * file + rename), mode 0600. What it holds is read back as untrusted data: `clientStep` verifies it
 * before any use, so this module only moves bytes.
 */

/** What the client writes: core's record, plus `recu` (the client's clock when the envelope arrived, see server-time.ts). */
export interface StoredRecord extends CacheRecord {
  readonly recu?: number;
}

/** A record is a few hundred bytes; anything much larger is garbage and is not even read whole. */
export const MAX_CACHE_BYTES = 64 * 1024;

/**
 * The file name for (product, key, host): `licence-<SHA-256 hex>.json`. The key is a secret
 * (docs/protocol.md#privacy: never in a log line or a file name), so only its digest appears; 125
 * random bits of key make the digest useless to guess from. JSON keeps the three parts apart (no
 * "a|b" = "a" + "|b").
 */
export async function cacheFileName(produit: string, cle: string, hote: string): Promise<string> {
  const input = new TextEncoder().encode(JSON.stringify([produit, cle, hote]));
  // WebCrypto is global in Node 20, Bun, Deno and edge runtimes alike.
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', input));
  return `licence-${toHex(digest)}.json`;
}

/**
 * The parsed file, or null when there is none, it is too large or it is not JSON (a garbage file
 * counts as no cache at all, docs/protocol.md#cache). Other I/O errors (a folder where the file
 * should be, no permission) are thrown for the caller to report; it then goes on without a cache.
 */
export async function readCacheFile(path: string): Promise<unknown> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_CACHE_BYTES) return null;
    const text = await handle.readFile({ encoding: 'utf8' });
    return parseJson(text);
  } finally {
    await handle.close();
  }
}

/** JSON.parse, with null for text that is not JSON (a torn or hand-edited file). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Not JSON: the same as no file (docs/protocol.md#cache: a stored copy that fails is ignored).
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/**
 * Writes `record` atomically: a temp file created exclusively with mode 0600 in the same folder,
 * then renamed over the cache file, so a reader sees the old file or the new one, never half of
 * one (rename(2) is atomic within a file system). No fsync: a torn file after a power cut is
 * garbage, which the client ignores and replaces with one call.
 */
export async function writeCacheFile(path: string, record: StoredRecord): Promise<void> {
  const temp = `${path}.${process.pid}.${toHex(globalThis.crypto.getRandomValues(new Uint8Array(6)))}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    // Best effort: the temp file may never have been created, and the error that matters is
    // the one thrown below, which the caller reports.
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Creates the cache folder (and its parents) if needed, mode 0700: it holds verdicts for a secret key. */
export async function ensureCacheDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}
