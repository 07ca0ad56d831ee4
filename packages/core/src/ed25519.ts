import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { decodeBase64, encodeBase64 } from './base64.js';
import { canonicalBytes } from './canonical-json.js';
import type { Donnees, SignedEnvelope } from './donnees.js';
import { typeName, ValidationError } from './validation-error.js';

// noble's synchronous API needs a SHA-512; this is its documented configuration, set once.
ed.hashes.sha512 ??= sha512;

/**
 * What signs verdicts. Core ships a pure @noble/ed25519 signer; the server plugs in node:crypto
 * (about ten times faster). Ed25519 is deterministic (RFC 8032 5.1.6), so both give the same bytes.
 */
export interface Signer {
  /** The raw 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array;
  /** A detached 64-byte Ed25519 signature of `message`. */
  sign(message: Uint8Array): Uint8Array;
}

/** A signer over a 32-byte Ed25519 seed (RFC 8032 5.1.5 "private key"). */
export function createNobleSigner(seed: Uint8Array): Signer {
  const secret = checkBytes(seed, 32, 'seed');
  return {
    publicKey: ed.getPublicKey(secret),
    sign: (message) => ed.sign(checkBytes(message, undefined, 'message'), secret),
  };
}

/** The public key of a seed, base64: what the service prints and clients trust. */
export function publicKeyOf(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(checkBytes(seed, 32, 'seed'));
}

/** Signs the canonical form of `donnees` (docs/protocol.md#signature, #canonical-form). */
export function signDonnees(donnees: Donnees, signer: Signer): SignedEnvelope {
  const signature = signer.sign(canonicalBytes(donnees));
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    throw new ValidationError('signature', `signer: expected a 64-byte signature, got ${typeName(signature)}`);
  }
  return { donnees, signature: encodeBase64(signature) };
}

/**
 * A detached Ed25519 check over raw bytes (RFC 8032 5.1.7), with `verifySignature`'s contract:
 * false, never an exception, for a bad signature or point. `verifyEnvelope` and `clientStep`
 * accept one, so a client can use node:crypto where the runtime has it.
 */
export type SignatureVerifier = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/**
 * Verifies a detached Ed25519 signature. Returns false for any bad signature or point (never
 * throws for those: they are data); throws only when the caller passes the wrong types.
 *
 * Strict RFC 8032 verification (`zip215: false`): non-canonical encodings of R, A and S >= L are
 * refused, as OpenSSL (node:crypto) and libsodium refuse them, so every implementation of the
 * protocol agrees on which signatures are good (Wycheproof ed25519_test.json checks this).
 */
export function verifySignature(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  checkBytes(signature, undefined, 'signature');
  checkBytes(message, undefined, 'message');
  checkBytes(publicKey, undefined, 'publicKey');
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    // noble throws on an undecodable point; for a verifier that is simply a bad signature.
    return false;
  }
}

/** Parses a trusted public key given as raw bytes or base64 (docs/protocol.md#signature: clients trust a list). */
export function toPublicKey(key: Uint8Array | string, field = 'publicKey'): Uint8Array {
  if (typeof key === 'string') return decodeBase64(key, field, 32);
  return checkBytes(key, 32, field);
}

function checkBytes(value: unknown, length: number | undefined, field: string): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new ValidationError(field, `${field}: expected a Uint8Array, got ${typeName(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new ValidationError(field, `${field}: expected ${length} bytes, got ${value.length}`);
  }
  return value;
}
