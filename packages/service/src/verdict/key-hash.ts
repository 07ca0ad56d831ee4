import { createHash } from 'node:crypto';

/**
 * docs/protocol.md#key-lifecycle: keys are stored as SHA-256 of the normalised key, lower-case hex,
 * never as themselves. A 125-bit random key needs no salt or slow hash: it cannot be guessed from a
 * list.
 */
export function hashKey(normalisedKey: string): string {
  return createHash('sha256').update(normalisedKey, 'utf8').digest('hex');
}
