import { tryDecodeBase64 } from './base64.js';
import { canonicalBytes } from './canonical-json.js';
import type { SignedEnvelope } from './donnees.js';
import { toPublicKey, verifySignature } from './ed25519.js';
import type { SignatureVerifier } from './ed25519.js';
import { isRecord, typeName, ValidationError } from './validation-error.js';

/** How `verifyEnvelope` checks a signature; every field is optional. */
export interface VerifyEnvelopeOptions {
  /**
   * The Ed25519 check to use instead of core's pure @noble/ed25519 one: a client plugs in
   * node:crypto where the runtime has it (about 15 times faster), or a memo of checks already
   * made. It must be a strict RFC 8032 verifier that returns false, never throws, for a bad
   * signature; only `true` counts as a good one.
   */
  readonly verify?: SignatureVerifier | undefined;
}

/** What the caller knows independently of the answer, and the answer must repeat. */
export interface EnvelopeExpectation {
  /** The caller's own host, normalised (docs/protocol.md#signature). */
  readonly hote: string;
  /** The product the caller asked about (docs/protocol.md#product-and-nonce): required in `donnees` when given. */
  readonly produit?: string;
  /** The nonce sent with this very call (docs/protocol.md#product-and-nonce): required in `donnees` when given. */
  readonly nonce?: string;
}

const STRING_FIELDS = ['motif', 'domaine', 'quand', 'hote'] as const;
const BOOLEAN_FIELDS = ['ok', 'essai'] as const;
const INTEGER_FIELDS = ['emis', 'revalider', 'sursis'] as const;

/**
 * True when `envelope` is a signed verdict this caller may act on:
 * - it has the shape `{donnees: {...the nine fields...}, signature: "<base64 of 64 bytes>"}`;
 * - the signature is a valid Ed25519 signature, by one of `trustedPublicKeys`, over the canonical
 *   form rebuilt from the parsed `donnees` (docs/protocol.md#signature: never over the raw bytes
 *   received), so fields added by a later service version are covered too;
 * - `donnees.hote` is the caller's host, and `produit` / `nonce` match when expected (a field
 *   expected but absent fails: a verdict asked without a product must not unlock one).
 *
 * Anything received (the envelope) that is wrong yields false, never an exception. Wrong
 * arguments from the calling code (no keys, a key of 31 bytes, a non-string host) throw a
 * ValidationError: they are bugs to fix, not answers to weigh.
 */
export function verifyEnvelope(
  envelope: unknown,
  trustedPublicKeys: readonly (Uint8Array | string)[],
  expect: EnvelopeExpectation,
  options: VerifyEnvelopeOptions = {},
): envelope is SignedEnvelope {
  const keys = checkTrustedPublicKeys(trustedPublicKeys);
  checkExpectation(expect);
  const verify = checkVerifier(options);

  if (!isRecord(envelope)) return false;
  const { donnees, signature } = envelope;
  if (!isRecord(donnees) || typeof signature !== 'string') return false;
  if (!hasVerdictShape(donnees)) return false;

  if (donnees.hote !== expect.hote) return false;
  if (expect.produit !== undefined && donnees.produit !== expect.produit) return false;
  if (expect.nonce !== undefined && donnees.nonce !== expect.nonce) return false;

  const signatureBytes = tryDecodeBase64(signature);
  if (signatureBytes === null || signatureBytes.length !== 64) return false;

  let message: Uint8Array;
  try {
    message = canonicalBytes(donnees);
  } catch (error) {
    // A value with no canonical form (a float, a lone surrogate) cannot have been signed by us.
    if (error instanceof ValidationError) return false;
    throw error;
  }
  return keys.some((key) => verify(signatureBytes, message, key) === true);
}

/** The verifier of `options`, or core's own; throws ValidationError for a wrong argument. */
export function checkVerifier(options: VerifyEnvelopeOptions, field = 'options'): SignatureVerifier {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError(field, `${field}: expected an object, got ${typeName(options)}`);
  }
  const { verify } = options;
  if (verify === undefined) return verifySignature;
  if (typeof verify !== 'function') {
    throw new ValidationError(`${field}.verify`, `${field}.verify: expected a function, got ${typeName(verify)}`);
  }
  return verify;
}

/** Checks a list of trusted public keys (bytes or base64) and decodes it; throws ValidationError. */
export function checkTrustedPublicKeys(trustedPublicKeys: readonly (Uint8Array | string)[]): Uint8Array[] {
  if (!Array.isArray(trustedPublicKeys) || trustedPublicKeys.length === 0) {
    throw new ValidationError(
      'trustedPublicKeys',
      `trustedPublicKeys: expected a non-empty array of public keys, got ${typeName(trustedPublicKeys)}`,
    );
  }
  return trustedPublicKeys.map((key, index) => toPublicKey(key, `trustedPublicKeys[${index}]`));
}

/** Checks what a caller expects in `donnees`; throws ValidationError. */
export function checkExpectation(expect: EnvelopeExpectation): void {
  if (!isRecord(expect)) {
    throw new ValidationError('expect', `expect: expected an object, got ${typeName(expect)}`);
  }
  for (const field of ['hote', 'produit', 'nonce'] as const) {
    const value = expect[field];
    if (field !== 'hote' && value === undefined) continue;
    if (typeof value !== 'string' || value === '') {
      throw new ValidationError(
        `expect.${field}`,
        `expect.${field}: expected a non-empty string, got ${typeName(value)}`,
      );
    }
  }
}

function hasVerdictShape(donnees: Record<string, unknown>): boolean {
  return (
    STRING_FIELDS.every((field) => typeof donnees[field] === 'string') &&
    BOOLEAN_FIELDS.every((field) => typeof donnees[field] === 'boolean') &&
    INTEGER_FIELDS.every((field) => Number.isSafeInteger(donnees[field])) &&
    (donnees.produit === undefined || typeof donnees.produit === 'string') &&
    (donnees.nonce === undefined || typeof donnees.nonce === 'string')
  );
}
