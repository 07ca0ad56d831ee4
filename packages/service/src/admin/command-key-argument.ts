import { CROCKFORD_ALPHABET, isValidationError, KEY_LENGTH, keyHint, normalizeKey } from '@licence/core';

/**
 * The key argument of `key show|regenerate|transfer|revoke|buyer-link`. The service finds a key by
 * the SHA-256 of its whole normalised form (docs/protocol.md#key-normalisation, "Lookup"), never by
 * its hint, so anything that cannot be an issued key (25 characters of Crockford's base32:
 * docs/protocol.md#key-normalisation, "Issuing") is a usage mistake, said as such, rather than a
 * lookup that answers "no key ending in ...". Messages never repeat more of the argument than a
 * key's hint may show (CONTRIBUTING.md, code style): it may be part of a key, or a pasted token.
 */

/** Arguments up to this long are quoted in the message: too short to be much of a key or a token. */
const QUOTED_UP_TO = 8;

const KEY_SHAPE = new RegExp(`^[${CROCKFORD_ALPHABET}]{${KEY_LENGTH}}$`);
const HINT_SHAPE = new RegExp(`^[${CROCKFORD_ALPHABET}]{4}$`);

export type KeyArgument =
  | { readonly ok: true; readonly cle: string }
  | { readonly ok: false; readonly message: string };

/** The normalised key, or the one line that says why `raw` is not one (`command` starts it). */
export function readKeyArgument(command: string, raw: string): KeyArgument {
  let cle: string;
  try {
    cle = normalizeKey(raw);
  } catch (error) {
    // normalizeKey's messages never hold the value (docs/protocol.md#key-normalisation).
    if (isValidationError(error)) return { ok: false, message: error.message };
    throw error;
  }
  if (KEY_SHAPE.test(cle)) return { ok: true, cle };
  if (HINT_SHAPE.test(cle)) {
    return {
      ok: false,
      message: `${command}: ${keyHint(cle)} looks like a key's hint (its last four characters); give the whole key: the service finds a key by it alone (docs/protocol.md#key-normalisation)`,
    };
  }
  const what =
    raw.length <= QUOTED_UP_TO
      ? JSON.stringify(raw)
      : `the argument (${cle.length} letters and digits, not repeated here)`;
  return {
    ok: false,
    message: `${command}: ${what} is not a licence key: a key is ${KEY_LENGTH} characters of 0-9 and A-Z without I, L, O or U, as XXXXX-XXXXX-XXXXX-XXXXX-XXXXX (docs/protocol.md#key-normalisation)`,
  };
}
