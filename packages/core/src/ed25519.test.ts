import { loadSignatureVectors, readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64.js';
import { canonicalJson } from './canonical-json.js';
import { createNobleSigner, publicKeyOf, signDonnees, toPublicKey, verifySignature } from './ed25519.js';
import type { Donnees } from './donnees.js';
import { ValidationError } from './validation-error.js';

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const vectors = loadSignatureVectors();
const primary = decodeBase64(vectors.keys.primary.seed, 'seed', 32);

describe('signDonnees with the noble signer (signatures.json, signed by node:crypto)', () => {
  const signer = createNobleSigner(primary);
  const cases = vectors.cases.flatMap((c) => (c.kind === 'sign' ? [c] : []));

  it('derives the TEST ONLY public key', () => {
    expect(Buffer.from(signer.publicKey).toString('base64')).toBe(vectors.keys.primary.publicKey);
    expect(Buffer.from(publicKeyOf(primary)).toString('base64')).toBe(vectors.keys.primary.publicKey);
  });

  it('has the vector cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(canonicalJson(c.donnees)).toBe(c.canonical);
    const envelope = signDonnees(c.donnees as unknown as Donnees, signer);
    expect(envelope.signature).toBe(c.signature);
    expect(envelope.donnees).toBe(c.donnees);
  });
});

interface RfcVector {
  priv: string;
  pub: string;
  msg: string;
  sig: string;
}

describe('RFC 8032 section 7.1 vectors', () => {
  const rfc = readExternalJson<RfcVector[]>('rfc8032/rfc8032-ed25519.json');

  it('has TESTs 1, 2, 3 and 1024', () => {
    expect(rfc).toHaveLength(4);
  });

  it.each(rfc.map((v, index) => [index, v] as const))('vector %i: key, signature and verification', (_i, v) => {
    const signer = createNobleSigner(hex(v.priv));
    expect(Buffer.from(signer.publicKey).toString('hex')).toBe(v.pub);
    expect(Buffer.from(signer.sign(hex(v.msg))).toString('hex')).toBe(v.sig);
    expect(verifySignature(hex(v.sig), hex(v.msg), hex(v.pub))).toBe(true);
    const flipped = hex(v.sig);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(verifySignature(flipped, hex(v.msg), hex(v.pub))).toBe(false);
  });
});

interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: {
      tcId: number;
      comment: string;
      msg: string;
      sig: string;
      result: 'valid' | 'invalid' | 'acceptable';
      flags: string[];
    }[];
  }[];
}

describe('Wycheproof ed25519_test.json', () => {
  const file = readExternalJson<WycheproofFile>('wycheproof/ed25519_test.json');
  const tests = file.testGroups.flatMap((group) => group.tests.map((test) => ({ ...test, pk: group.publicKey.pk })));

  it('runs every case of the file', () => {
    expect(tests).toHaveLength(file.numberOfTests);
    expect(tests.length).toBe(151);
  });

  // Every case has result valid or invalid: there is no "acceptable" case to argue about, and
  // strict RFC 8032 verification (zip215: false) must agree with each one.
  it.each(tests.map((t) => [t.tcId, t.comment || t.flags.join(','), t] as const))('tcId %i (%s)', (_id, _c, t) => {
    expect(verifySignature(hex(t.sig), hex(t.msg), hex(t.pk))).toBe(t.result === 'valid');
  });
});

describe('Ed25519 argument checks', () => {
  it('refuses a seed of the wrong size or type', () => {
    expect(() => createNobleSigner(new Uint8Array(31))).toThrow('seed: expected 32 bytes, got 31');
    expect(() => createNobleSigner('seed' as unknown as Uint8Array)).toThrow('seed: expected a Uint8Array, got string');
  });

  it('refuses non-bytes passed to verifySignature, and is false for wrong lengths', () => {
    expect(() => verifySignature('sig' as unknown as Uint8Array, new Uint8Array(0), new Uint8Array(32))).toThrow(
      ValidationError,
    );
    expect(verifySignature(new Uint8Array(63), new Uint8Array(0), new Uint8Array(32))).toBe(false);
    expect(verifySignature(new Uint8Array(64), new Uint8Array(0), new Uint8Array(31))).toBe(false);
  });

  it('is false, not an exception, for a public key that is not a point', () => {
    const notAPoint = new Uint8Array(32).fill(0xff);
    expect(verifySignature(new Uint8Array(64), new Uint8Array(0), notAPoint)).toBe(false);
  });

  it('refuses a signer that does not return 64 bytes', () => {
    const broken = { publicKey: new Uint8Array(32), sign: () => new Uint8Array(10) };
    expect(() => signDonnees({} as Donnees, broken)).toThrow(
      'signer: expected a 64-byte signature, got Uint8Array(10)',
    );
  });

  it('reads public keys as bytes or base64', () => {
    expect(toPublicKey(vectors.keys.primary.publicKey)).toHaveLength(32);
    expect(() => toPublicKey('abc')).toThrow('publicKey: not canonical padded base64');
    expect(() => toPublicKey(Buffer.alloc(33).toString('base64'))).toThrow('publicKey: expected 32 bytes, got 33');
    expect(() => toPublicKey(new Uint8Array(16), 'trusted')).toThrow('trusted: expected 32 bytes, got 16');
  });
});
