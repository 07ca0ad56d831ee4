import { verifySignature } from '@licence/core';
import type { SignatureVerifier } from '@licence/core';
import type { KeyObject } from 'node:crypto';

/**
 * Which Ed25519 implementation checks signatures: node:crypto (OpenSSL) where the runtime has it
 * with Ed25519, about 15 times faster than the pure-JavaScript @noble/ed25519 that core ships;
 * noble everywhere else. Both are strict RFC 8032 verifiers and agree on every Wycheproof case
 * (the tests run both on them).
 */
export type CryptoChoice = 'auto' | 'node' | 'noble';

export interface Verifier {
  readonly name: 'node:crypto' | 'noble';
  readonly verify: SignatureVerifier;
}

export const nobleVerifier: Verifier = { name: 'noble', verify: verifySignature };

let nodeChoice: Promise<Verifier | null> | null = null;

/**
 * The verifier for `choice`: 'auto' is node:crypto when it works here, else noble. The runtime
 * is probed once per process (an import and an RFC 8032 self-test), not once per Licence.
 */
export async function chooseVerifier(choice: CryptoChoice): Promise<Verifier> {
  if (choice === 'noble') return nobleVerifier;
  nodeChoice ??= nodeVerifier();
  const node = await nodeChoice;
  if (node !== null) return node;
  if (choice === 'node')
    throw new Error('crypto: "node" was asked for, but this runtime has no node:crypto with Ed25519');
  return nobleVerifier;
}

// RFC 8032 7.1 TEST 1 (the empty message): a runtime whose node:crypto gets this wrong is not used.
const RFC8032_PUBLIC_KEY = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC8032_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

/** node:crypto's Ed25519, or null when the runtime lacks it or fails the RFC 8032 self-test. */
export async function nodeVerifier(): Promise<Verifier | null> {
  let crypto: typeof import('node:crypto');
  try {
    // Imported on demand, so a runtime without node:crypto still loads this package.
    crypto = await import('node:crypto');
  } catch {
    // No node:crypto here (an edge runtime): noble does the work.
    return null;
  }
  const keys = new Map<string, KeyObject>();
  const keyObject = (publicKey: Uint8Array): KeyObject => {
    const id = String.fromCharCode(...publicKey);
    let key = keys.get(id);
    if (key === undefined) {
      // A raw Ed25519 key as a JWK (RFC 8037 2): `x` is the 32 bytes in base64url.
      key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(publicKey) }, format: 'jwk' });
      // Only trusted keys get here (a handful); the bound is a guard, not a policy.
      if (keys.size >= 16) keys.clear();
      keys.set(id, key);
    }
    return key;
  };
  const verify: SignatureVerifier = (signature, message, publicKey) => {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      return crypto.verify(null, message, keyObject(publicKey), signature);
    } catch {
      // OpenSSL refuses a key that is not a curve point by throwing; for a verifier that is a
      // bad signature, as it is for noble (core's verifySignature).
      return false;
    }
  };
  try {
    const publicKey = fromHex(RFC8032_PUBLIC_KEY);
    const signature = fromHex(RFC8032_SIGNATURE);
    const flipped = signature.slice();
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const message = new Uint8Array(0);
    if (verify(signature, message, publicKey) && !verify(flipped, message, publicKey)) {
      return { name: 'node:crypto', verify };
    }
    return null;
  } catch {
    // A node:crypto without Ed25519 (some runtimes' compatibility layers) throws here.
    return null;
  }
}

const memo: { signature: Uint8Array; message: Uint8Array; publicKey: Uint8Array }[] = [];
const MEMO_SIZE = 16;

/**
 * A verifier that answers at once for (signature, message, key) it has already seen verify in
 * this process, and asks `verify` otherwise: a signature check is done once per cache
 * content per process, not on every valide(). Ed25519 verification is a pure function of those
 * bytes, so this only skips work: a copy that differs by one byte is checked in full, and a copy
 * is always checked before its first use. Only good answers are kept; the memo holds the last 16.
 */
export function memoized(verify: SignatureVerifier): SignatureVerifier {
  return (signature, message, publicKey) => {
    for (const entry of memo) {
      if (equal(entry.signature, signature) && equal(entry.publicKey, publicKey) && equal(entry.message, message))
        return true;
    }
    if (verify(signature, message, publicKey) !== true) return false;
    memo.unshift({ signature: signature.slice(), message: message.slice(), publicKey: publicKey.slice() });
    if (memo.length > MEMO_SIZE) memo.pop();
    return true;
  };
}

/** Empties the memo, so the bench and the tests can measure or watch a first check. Internal. */
export function forgetVerified(): void {
  memo.length = 0;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}
