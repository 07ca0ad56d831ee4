// The TEST ONLY signing keys and the node:crypto signer shared by the vector generators.
// node:crypto (OpenSSL) is independent of @licence/core's noble code, so vectors signed here
// check core rather than echo it. The seeds are public and printable: never sign anything real.
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';

export const SEEDS = {
  primary: 'TEST ONLY - never sign real data',
  rotation: 'TEST ONLY - second key, rotation',
  untrusted: "TEST ONLY - an attacker's seed!!",
};

// RFC 8410: the PKCS#8 DER prefix of an Ed25519 private key, followed by the 32-byte seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export const keys = Object.fromEntries(
  Object.entries(SEEDS).map(([name, text]) => {
    const seed = Buffer.from(text, 'ascii');
    if (seed.length !== 32) throw new Error(`${name} seed must be 32 bytes`);
    const privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
    // The raw key is the last 32 bytes of the SPKI DER form (RFC 8410).
    const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
    return [
      name,
      { seedText: text, seed: seed.toString('base64'), publicKey: publicKey.toString('base64'), privateKey },
    ];
  }),
);
if (keys.primary.publicKey !== 't+BgdQhT722WYlxoHMJmOlp3AQMS2RH6uZGgkKbs/l0=') throw new Error('primary key mismatch');

/**
 * docs/protocol.md#canonical-form for the flat objects the generators sign: keys sorted by their
 * UTF-8 bytes, then JSON.stringify. (canonical.json covers the hard cases of the form itself.)
 */
export const canonical = (donnees) =>
  JSON.stringify(
    Object.fromEntries(Object.entries(donnees).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))),
  );

/** Base64 Ed25519 signature of `bytes` (a Buffer) by the named TEST ONLY key. */
export const signBytes = (keyName, bytes) => sign(null, bytes, keys[keyName].privateKey).toString('base64');

/** Base64 Ed25519 signature of canonical(donnees) by the named TEST ONLY key. */
export const signWith = (keyName, donnees) => signBytes(keyName, Buffer.from(canonical(donnees), 'utf8'));
