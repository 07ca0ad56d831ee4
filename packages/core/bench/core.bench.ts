/**
 * `pnpm bench` in packages/core: operations per second of the hot paths of a verdict, one core.
 * node:crypto is here only for comparison (the server's signer); it is not part of core, which
 * is why this file lives outside src/ (core's purity test covers src/).
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { bench, describe } from 'vitest';
import { canonicalBytes, canonicalJson } from '../src/canonical-json.js';
import { signDonnees, verifySignature } from '../src/ed25519.js';
import { parseHost } from '../src/parse-host.js';
import { verifyEnvelope } from '../src/verify-envelope.js';
import { primarySigner as noble, okDonnees, primarySeed } from '../test/test-signer.js';

// The TEST ONLY primary key, in noble and in node:crypto (RFC 8410: PKCS#8 DER prefix + seed).
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), primarySeed]),
  format: 'der',
  type: 'pkcs8',
});
const publicKey = createPublicKey(privateKey);

// The same verdict for every row: a positive answer with produit and nonce, as our clients ask.
const donnees = okDonnees({ hote: 'boutique.exemple.fr', produit: 'mon-theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' });
const message = canonicalBytes(donnees);
const envelope = signDonnees(donnees, noble);
const signature = Buffer.from(envelope.signature, 'base64');
const expectation = { hote: 'boutique.exemple.fr', produit: 'mon-theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' };

if (!Buffer.from(nodeSign(null, message, privateKey)).equals(signature)) {
  throw new Error('node:crypto and noble must give the same signature');
}

describe('host', () => {
  bench('parseHost("https://www.Boutique.Exemple.fr:8443/panier?x=1")', () => {
    parseHost('https://www.Boutique.Exemple.fr:8443/panier?x=1');
  });
  bench('parseHost("shop.myshopify.com")', () => {
    parseHost('shop.myshopify.com');
  });
});

describe('canonical form', () => {
  bench('canonicalJson(donnees)', () => {
    canonicalJson(donnees);
  });
  bench('canonicalBytes(donnees) (UTF-8)', () => {
    canonicalBytes(donnees);
  });
});

describe('sign (same verdict)', () => {
  bench('noble sign', () => {
    noble.sign(message);
  });
  bench('node:crypto sign', () => {
    nodeSign(null, message, privateKey);
  });
});

describe('verify (same verdict)', () => {
  bench('noble verify', () => {
    verifySignature(signature, message, noble.publicKey);
  });
  bench('node:crypto verify', () => {
    nodeVerify(null, message, publicKey, signature);
  });
  bench('verifyEnvelope (noble, shape + host + produit + nonce)', () => {
    verifyEnvelope(envelope, [noble.publicKey], expectation);
  });
});
