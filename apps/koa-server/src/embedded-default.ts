import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { randomBytes } from '@licence/service';
import type { ServerConfig } from './config.js';
import { ensureSeedFile, readSeedFile } from './seed-file.js';
import { StartupError } from './startup-error.js';

/**
 * The embedded default (docs/protocol.md#signature, #configuration): with no configuration at all,
 * the first start creates LICENCE_DATA_DIR (mode 0700), the SQLite file (opened by the store) and
 * `signing-key` (mode 0600) in it; a second start reuses them.
 */

export const DATA_DIR_MODE = 0o700;

export interface PreparedData {
  readonly seed: Uint8Array;
  readonly createdDataDir: boolean;
  readonly createdSigningKey: boolean;
  /** Things worth a log line (a key file readable by others). */
  readonly warnings: readonly string[];
}

/** Creates what is missing and loads the signing seed, from wherever the configuration says. */
export function prepareData(config: ServerConfig, random: RandomBytes = randomBytes): PreparedData {
  const source = config.signingKey;
  // The data folder holds the SQLite file and the embedded key file. With DATABASE_URL and a
  // configured key it holds nothing, and is not created (a read-only container filesystem).
  const needsDataDir = config.database.kind === 'sqlite' || source.kind === 'embedded';
  const createdDataDir = needsDataDir ? ensureDataDir(config.dataDir) : false;
  const warnings: string[] = [];
  if (source.kind === 'inline') return { seed: source.seed, createdDataDir, createdSigningKey: false, warnings };
  if (source.kind === 'file') {
    const { seed, warning } = readSeedFile(source.path, 'LICENCE_SIGNING_KEY_FILE');
    if (warning !== undefined) warnings.push(warning);
    return { seed, createdDataDir, createdSigningKey: false, warnings };
  }
  const { seed, created, warning } = ensureSeedFile(source.path, random);
  if (warning !== undefined) warnings.push(warning);
  return { seed, createdDataDir, createdSigningKey: created, warnings };
}

/**
 * Creates the data folder (0700) when missing; true when it did. Every fault is one line naming
 * LICENCE_DATA_DIR. Each missing level is created on its own, from the nearest existing ancestor
 * down, never with `mkdir -p`'s recursive option: on a filesystem that refuses new folders without
 * saying ENOENT plainly (/proc), Node's recursive mkdir loops for ever at full CPU.
 */
export function ensureDataDir(dir: string): boolean {
  const missing = missingLevels(dir);
  if (missing.length === 0) return false;
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: DATA_DIR_MODE });
    } catch (error) {
      const where = level === dir ? '' : ` at ${level}`;
      throw new StartupError(`LICENCE_DATA_DIR: cannot create ${dir} (${errorCode(error) ?? 'error'}${where})`);
    }
  }
  try {
    // The umask may have taken bits away from `mode`; the folder holds the signing key.
    chmodSync(dir, DATA_DIR_MODE);
  } catch (error) {
    throw new StartupError(`LICENCE_DATA_DIR: cannot set the mode of ${dir} (${errorCode(error) ?? 'error'})`);
  }
  return true;
}

/** The folders to create for `dir` to exist, outermost first; none when it is already a folder. */
function missingLevels(dir: string): string[] {
  const missing: string[] = [];
  for (let level = dir; ; level = dirname(level)) {
    const kind = pathKind(level);
    if (kind === 'directory') return missing;
    if (kind === 'other') {
      const what = level === dir ? 'exists and is not a directory' : `cannot be created: ${level} is not a directory`;
      throw new StartupError(`LICENCE_DATA_DIR: ${dir} ${what}`);
    }
    // The root always exists: the walk ends there at the latest.
    missing.unshift(level);
    if (dirname(level) === level) return missing;
  }
}

/** What is at `path`; a fault other than "nothing there" stops the start. */
function pathKind(path: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return 'missing';
    // ENOTDIR: a level above is a file; the walk reaches it and names it.
    if (code === 'ENOTDIR') return 'missing';
    throw new StartupError(`LICENCE_DATA_DIR: cannot use ${path} (${code ?? 'error'})`);
  }
}
