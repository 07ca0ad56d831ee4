import { chmodSync, mkdirSync, statSync } from 'node:fs';
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

/** Creates the data folder (0700) when missing; true when it did. */
export function ensureDataDir(dir: string): boolean {
  try {
    const stats = statSync(dir);
    if (!stats.isDirectory()) throw new StartupError(`LICENCE_DATA_DIR: ${dir} exists and is not a directory`);
    return false;
  } catch (error) {
    if (error instanceof StartupError) throw error;
    if (errorCode(error) !== 'ENOENT') {
      throw new StartupError(`LICENCE_DATA_DIR: cannot use ${dir} (${errorCode(error) ?? 'error'})`);
    }
  }
  try {
    mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
    // The umask may have taken bits away from `mode`; the folder holds the signing key.
    chmodSync(dir, DATA_DIR_MODE);
  } catch (error) {
    throw new StartupError(`LICENCE_DATA_DIR: cannot create ${dir} (${errorCode(error) ?? 'error'})`);
  }
  return true;
}
