import { CROCKFORD_ALPHABET, KEY_LENGTH } from './generate-key.js';
import { isValidationError } from './validation-error.js';
import { normalizeKey } from './normalize-key.js';

/**
 * Why a client cannot use the key it was handed (docs/protocol.md#no-usable-key: `no_key`).
 * `sans_cle`: nothing entered yet (not a string, or only white space: what a settings store gives
 * before the buyer saves a key). `cle_invalide`: something was entered, but it is no licence key.
 */
export type KeyProblem = 'sans_cle' | 'cle_invalide';

/** Nothing but ASCII white space (spelled out: PHP's trim and JavaScript's differ beyond ASCII). */
const BLANK = /^[\t\n\v\f\r ]*$/;

/**
 * The buyer's key is the buyer's input, not the developer's constant: a client never throws for
 * it (docs/protocol.md#no-usable-key). A usable key normalises (docs/protocol.md#key-normalisation)
 * to the 25 Crockford characters every key is issued with; anything else would only cost a call
 * answered `inconnue` or a 400.
 */
export function keyProblem(cle: unknown): KeyProblem | null {
  if (typeof cle !== 'string' || BLANK.test(cle)) return 'sans_cle';
  let key: string;
  try {
    key = normalizeKey(cle);
  } catch (error) {
    if (isValidationError(error)) return 'cle_invalide';
    throw error;
  }
  if (key.length !== KEY_LENGTH) return 'cle_invalide';
  return [...key].every((character) => CROCKFORD_ALPHABET.includes(character)) ? null : 'cle_invalide';
}
