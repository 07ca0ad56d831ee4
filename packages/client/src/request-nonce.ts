/**
 * The nonce each call sends (docs/protocol.md#product-and-nonce): fresh and random. The tests fix
 * it for one instance (the conformance vectors name each case's nonce) with `fixNonceForTests`,
 * which lives in this internal module only: `index.ts` does not re-export it, so neither the
 * published API nor its types show it.
 */

/** The nonce sources tests set, per `Licence` instance; weak, so an instance is never kept alive for it. */
const fixedNonces = new WeakMap<object, () => string>();

/** 16 random bytes (128 bits), base64url: 22 characters of `[A-Za-z0-9_-]`. */
export function randomNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Test seam: the calls of `owner` send the nonces of `nonce` from now on. */
export function fixNonceForTests(owner: object, nonce: () => string): void {
  fixedNonces.set(owner, nonce);
}

/** The nonce of `owner`'s next call: random, unless a test fixed it. */
export function nextNonce(owner: object): string {
  return (fixedNonces.get(owner) ?? randomNonce)();
}
