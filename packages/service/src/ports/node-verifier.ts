import { createPublicKey, verify } from 'node:crypto';
import { typeName, ValidationError } from '@licence/core';

/**
 * Checks detached Ed25519 signatures (RFC 8032 5.1.7) made with one key: on the server, the
 * service's own (its buyer links' tokens, docs/protocol.md#buyer-links). The counterpart of the
 * `Signer`: same key, the other half of the work.
 */
export interface Verifier {
  /** The raw 32-byte Ed25519 public key every signature is checked against. */
  readonly publicKey: Uint8Array;
  /** True when `signature` is this key's over `message`; false, never an exception, for a bad one. */
  verify(signature: Uint8Array, message: Uint8Array): boolean;
}

/**
 * The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 4): SEQUENCE { AlgorithmIdentifier
 * { id-Ed25519 1.3.101.112 }, BIT STRING (no unused bits) }. The raw 32-byte key follows.
 */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * A `Verifier` on node:crypto (OpenSSL), the server's: every signature the service checks goes
 * through it, never through core's pure noble `verifySignature` (about 17 times slower: 1.38 ms
 * against 0.083 ms a check, which made a forged buyer link a CPU lever). Both are strict RFC 8032
 * verifiers (non-canonical R or A, and S >= L, refused: docs/protocol.md#signature), and agree on
 * every Wycheproof and RFC 8032 case (node-verifier.test.ts). The KeyObject is prepared once, not
 * per signature, as createNodeSigner prepares its private key.
 */
export function createNodeVerifier(publicKey: Uint8Array): Verifier {
  checkBytes(publicKey, 'publicKey');
  if (publicKey.length !== 32) {
    throw new ValidationError('publicKey', `publicKey: expected 32 bytes, got ${publicKey.length}`);
  }
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
  return {
    publicKey: publicKey.slice(),
    verify(signature, message) {
      checkBytes(signature, 'signature');
      checkBytes(message, 'message');
      // A wrong length is a bad signature, as core's verifySignature answers it (data, not a bug).
      if (signature.length !== 64) return false;
      // Ed25519 takes no separate digest: the algorithm argument is null (Node docs, crypto.verify).
      // OpenSSL answers false, without throwing, for a signature or a key that is no curve point.
      return verify(null, message, key, signature);
    },
  };
}

/** A programming error, not data: the caller passed something that is not bytes. */
function checkBytes(value: unknown, field: string): void {
  if (!(value instanceof Uint8Array)) {
    throw new ValidationError(field, `${field}: expected a Uint8Array, got ${typeName(value)}`);
  }
}
