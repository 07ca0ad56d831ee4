import { readFileSync } from 'node:fs';
import { errorCode } from '@licence/core';
import { decodeSeed } from './config-values.js';
import { invalid, type Parsed } from './parsed.js';

/**
 * A signing seed file's seed (docs/protocol.md#signature), as the Koa server and the Lambda handler
 * both read `LICENCE_SIGNING_KEY_FILE`. `variable` names the file in a fault, with its path; the
 * file's content is never shown.
 */
export function loadSeedFile(path: string, variable: string): Parsed<Uint8Array> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return invalid(variable, `cannot read ${path} (${errorCode(error) ?? 'error'})`);
  }
  const seed = decodeSeed(text, variable);
  if (seed.ok) return seed;
  return { ok: false, errors: seed.errors.map((error) => ({ ...error, message: `${error.message} in ${path}` })) };
}
