import { encodeBase64, errorCode, publicKeyOf } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { isAbsolute, resolve } from 'node:path';
import { randomBytes } from '@licence/service';
import { createSeedFile } from './seed-file.js';
import { shellQuote } from './startup-banner.js';
import { StartupError } from './startup-error.js';

export interface KeygenResult {
  readonly publicKey: string;
  /** Absolute path of the written file, when `--out` was given. */
  readonly file?: string;
  /**
   * Only with `--print-seed` (docs/protocol.md#signature: the seed is a secret; it is printed only
   * when asked).
   */
  readonly seed?: string;
}

/**
 * `licence keygen` (docs/protocol.md#signature): a new 32-byte Ed25519 seed, written to a file
 * (mode 0600, never over an existing one) and/or printed on request, and its public key.
 */
export function keygen(
  options: { readonly out?: string; readonly printSeed: boolean; readonly cwd: string },
  random: RandomBytes = randomBytes,
): KeygenResult {
  if (options.out === undefined) {
    const seed = random(32);
    return { publicKey: encodeBase64(publicKeyOf(seed)), seed: encodeBase64(seed) };
  }
  const file = isAbsolute(options.out) ? options.out : resolve(options.cwd, options.out);
  let made: ReturnType<typeof createSeedFile>;
  try {
    made = createSeedFile(file, random);
  } catch (error) {
    throw new StartupError(`keygen: cannot write ${file} (${errorCode(error) ?? 'error'})`);
  }
  if (made.result === 'exists')
    throw new StartupError(`keygen: ${file} already exists; refusing to overwrite a signing key`);
  return {
    publicKey: encodeBase64(publicKeyOf(made.seed)),
    file,
    ...(options.printSeed ? { seed: encodeBase64(made.seed) } : {}),
  };
}

/** The human form of keygen's result. */
export function formatKeygen(result: KeygenResult): string {
  const lines = [`public key (base64): ${result.publicKey}`];
  if (result.file !== undefined) {
    lines.push(
      `signing key written to ${result.file} (mode 0600); serve with LICENCE_SIGNING_KEY_FILE=${shellQuote(result.file)}`,
    );
  }
  if (result.seed !== undefined) lines.push(`LICENCE_SIGNING_KEY=${result.seed}`);
  return `${lines.join('\n')}\n`;
}
