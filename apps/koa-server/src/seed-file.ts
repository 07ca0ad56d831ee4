import { chmodSync, closeSync, fsyncSync, linkSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { encodeBase64, errorCode } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { configErrorLine, loadSeedFile, randomBytes } from '@licence/service';
import { StartupError } from './startup-error.js';

/**
 * Signing seed files (docs/protocol.md#signature): 32 random bytes, base64, one line, mode 0600.
 * `licence keygen` and the embedded default both write them here.
 */

export const SEED_FILE_MODE = 0o600;

/**
 * Writes a new seed to `path`, never over an existing file: 'exists' then, and nothing changes.
 *
 * The seed goes to a private temporary file first (`wx`, 0600, fsync) and is published with
 * `link`, which fails when `path` exists. So two starts racing on one data folder never clobber
 * each other, and a reader never sees a half-written file (which a plain `wx` write would allow).
 */
export function createSeedFile(
  path: string,
  random: RandomBytes = randomBytes,
): { readonly result: 'created'; readonly seed: Uint8Array } | { readonly result: 'exists' } {
  const seed = random(32);
  const content = `${encodeBase64(seed)}\n`;
  const temporary = `${path}.${process.pid}.${encodeHex(random(6))}.tmp`;
  const fd = openSync(temporary, 'wx', SEED_FILE_MODE);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
    return { result: 'created', seed };
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return { result: 'exists' };
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * Reads a seed file. `name` is what the error line names (the variable, or the embedded file).
 * Errors never show the file's content.
 */
export function readSeedFile(path: string, name: string): { readonly seed: Uint8Array; readonly warning?: string } {
  const loaded = loadSeedFile(path, name);
  if (!loaded.ok) throw new StartupError(loaded.errors.map(configErrorLine).join('; '));
  const warning = tightenSeedFile(path);
  return warning === undefined ? { seed: loaded.value } : { seed: loaded.value, warning };
}

/**
 * docs/protocol.md#signature: a key file that group or others may read is set to 0600, as the
 * database files are (docs/protocol.md#storage), and the change is a warning line. One this
 * process may not change (a secret mounted read-only and owned by root: EPERM, EROFS) is used as it
 * is, with a warning that says why and what to do, rather than a refusal: container secrets are
 * often mounted 0644, and a server that stops over it takes every shop's verdicts with it.
 */
function tightenSeedFile(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  const was = mode.toString(8).padStart(4, '0');
  try {
    chmodSync(path, SEED_FILE_MODE);
    return `${path} was readable by other users (mode ${was}); it is now 0600`;
  } catch (error) {
    return (
      `${path} is readable by other users (mode ${was}) and cannot be set to 0600 ` +
      `(${errorCode(error) ?? 'error'}: not its owner, or a read-only mount); make it 0400 or 0600 where ` +
      `it is made (a Kubernetes secret volume's defaultMode, a Docker secret's mode), or copy it to a file ` +
      `only this user can read`
    );
  }
}

/**
 * The embedded default's key: reuses the file, or creates it on first start
 * (docs/protocol.md#signature).
 */
export function ensureSeedFile(
  path: string,
  random: RandomBytes = randomBytes,
): { readonly seed: Uint8Array; readonly created: boolean; readonly warning?: string } {
  if (!exists(path)) {
    const made = createSeedFile(path, random);
    if (made.result === 'created') return { seed: made.seed, created: true };
    // Another start won the race: use its key.
  }
  return { ...readSeedFile(path, `signing key file`), created: false };
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

function encodeHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
