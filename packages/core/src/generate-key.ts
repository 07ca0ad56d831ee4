import { typeName, ValidationError } from './validation-error.js';

/** Crockford's base32 alphabet: digits and letters without I, L, O, U (docs/protocol.md#key-normalisation). */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Issued keys are 25 characters: 125 bits of randomness, shown as five groups of five. */
export const KEY_LENGTH = 25;

/** A source of random bytes, handed in (core never reads randomness itself): node's `randomBytes`, `crypto.getRandomValues`... */
export type RandomBytes = (length: number) => Uint8Array;

/**
 * A new licence key, formatted for display: `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`.
 *
 * Each character takes the low five bits of one random byte. 256 is a multiple of 32, so every
 * character is uniform (no modulo bias) and the mapping is easy to state in vectors.
 */
export function generateKey(random: RandomBytes): string {
  if (typeof random !== 'function') {
    throw new ValidationError('random', `random: expected a function, got ${typeName(random)}`);
  }
  const bytes = random(KEY_LENGTH);
  if (!(bytes instanceof Uint8Array) || bytes.length !== KEY_LENGTH) {
    throw new ValidationError('random', `random: expected ${KEY_LENGTH} bytes, got ${typeName(bytes)}`);
  }
  let key = '';
  for (const byte of bytes) key += CROCKFORD_ALPHABET[byte & 0x1f];
  return formatKey(key);
}

/** Groups a normalised key by five with dashes, for display. Takes a normalised key. */
export function formatKey(normalisedKey: string): string {
  return normalisedKey.match(/.{1,5}/g)?.join('-') ?? '';
}
