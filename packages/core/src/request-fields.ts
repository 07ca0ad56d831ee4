import { typeName, ValidationError } from './validation-error.js';

/**
 * The two optional request fields of our protocol extension (docs/protocol.md#product-and-nonce):
 * `produit` binds a verdict to a product, `nonce` binds it to one call. Both are echoed inside
 * `donnees` (and so signed) only when the request carried them, so an absent field stays absent:
 * `undefined` in, `undefined` out. Anything else that is not a well-formed value is a 400 at the
 * service (docs/protocol.md#request), including `null` and the empty string.
 *
 * Messages never repeat the value: it came from an untrusted body and ends up in a problem+json
 * `detail`.
 */

/** Set only by the validators below: a `Produit` or `Nonce` is a value that passed its check. */
declare const checked: unique symbol;

/** A `produit` checked by validateProduit. */
export type Produit = string & { readonly [checked]: 'Produit' };

/** A `nonce` checked by validateNonce. */
export type Nonce = string & { readonly [checked]: 'Nonce' };

/** docs/protocol.md#product-and-nonce: `[a-z0-9._-]{1,64}`. */
const PRODUIT_LENGTH = { min: 1, max: 64 } as const;
const PRODUIT_CHARACTERS = /^[a-z0-9._-]*$/;

/** docs/protocol.md#product-and-nonce: `[A-Za-z0-9_-]{16,64}` (16 base64url characters carry 96 random bits). */
const NONCE_LENGTH = { min: 16, max: 64 } as const;
const NONCE_CHARACTERS = /^[A-Za-z0-9_-]*$/;

/** The request's `produit`, checked; `undefined` when the request had none. */
export function validateProduit(value: unknown): Produit | undefined {
  const allowed = 'a-z, 0-9, ".", "_" and "-"';
  return validateField(value, 'produit', PRODUIT_LENGTH, PRODUIT_CHARACTERS, allowed) as Produit | undefined;
}

/** The request's `nonce`, checked; `undefined` when the request had none. */
export function validateNonce(value: unknown): Nonce | undefined {
  const allowed = 'A-Z, a-z, 0-9, "_" and "-"';
  return validateField(value, 'nonce', NONCE_LENGTH, NONCE_CHARACTERS, allowed) as Nonce | undefined;
}

function validateField(
  value: unknown,
  field: string,
  length: { readonly min: number; readonly max: number },
  characters: RegExp,
  allowed: string,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new ValidationError(field, `${field}: expected a string, got ${typeName(value)}`);
  }
  // Length first, so that an over-long value is reported as such whatever it holds. JavaScript
  // length counts UTF-16 units; a value that passes the ASCII-only character check below has as
  // many units as characters, so the bound is exact for every accepted value.
  if (value.length < length.min || value.length > length.max) {
    throw new ValidationError(
      field,
      `${field}: expected ${length.min} to ${length.max} characters, got ${value.length}`,
    );
  }
  // `$` without the `m` flag matches only at the very end in JavaScript (unlike PCRE, where it
  // also matches before a final newline), so "abc\n" is refused here.
  if (!characters.test(value)) {
    throw new ValidationError(field, `${field}: expected only ${allowed}`);
  }
  return value;
}
