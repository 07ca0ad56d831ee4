import { typeName, ValidationError } from './validation-error.js';

/**
 * A raw `cle` longer than this (JavaScript string length) is refused before anything else
 * (docs/protocol.md#key-normalisation).
 */
export const MAX_RAW_KEY_LENGTH = 1024;

/**
 * The buyer's key as the service looks it up (docs/protocol.md#key-normalisation): keep
 * ASCII letters and digits, drop everything else, fold to upper case. Pasted spaces, dashes,
 * quotes and line breaks are harmless. Letters are not re-mapped (no Crockford O->0, I->1):
 * issued keys never hold those letters, so a mistyped one simply answers `inconnue`.
 *
 * Messages never include the value: it may be a real key.
 */
export function normalizeKey(raw: unknown): string {
  if (typeof raw !== 'string') {
    throw new ValidationError('cle', `cle: expected a string, got ${typeName(raw)}`);
  }
  if (raw.length > MAX_RAW_KEY_LENGTH) {
    throw new ValidationError('cle', `cle: longer than ${MAX_RAW_KEY_LENGTH} characters`);
  }
  if (raw === '') throw new ValidationError('cle', 'cle: is empty');
  const key = raw.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  if (key === '') throw new ValidationError('cle', 'cle: holds no letter or digit');
  return key;
}

/**
 * The four characters of a key that may be shown or logged (docs/protocol.md#key-lifecycle,
 * #privacy): never more. Takes a normalised key.
 */
export function keyHint(normalisedKey: string): string {
  return normalisedKey.slice(-4);
}
