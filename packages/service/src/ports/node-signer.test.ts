import { canonicalBytes, createNobleSigner, encodeBase64, signDonnees, type Donnees } from '@licence/core';
import { loadSignatureVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { createNodeSigner } from './node-signer.js';

const vectors = loadSignatureVectors();
const seedOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
const primary = createNodeSigner(seedOf(vectors.keys.primary.seed));
const signCases = vectors.cases.filter((entry) => entry.kind === 'sign');

describe('createNodeSigner', () => {
  it('derives the public key of each TEST ONLY seed', () => {
    for (const key of Object.values(vectors.keys)) {
      expect(encodeBase64(createNodeSigner(seedOf(key.seed)).publicKey)).toBe(key.publicKey);
    }
  });

  it('has sign cases to run', () => {
    expect(signCases.length).toBeGreaterThan(10);
  });

  it.each(signCases.map((entry) => [entry.name, entry] as const))(
    'signs the vector %s byte for byte',
    (_name, entry) => {
      if (entry.kind !== 'sign') throw new Error('filtered above');
      const message = new TextEncoder().encode(entry.canonical);
      expect(canonicalBytes(entry.donnees)).toEqual(message);
      expect(encodeBase64(primary.sign(message))).toBe(entry.signature);
    },
  );

  it('gives the same bytes as core noble signer through signDonnees', () => {
    const noble = createNobleSigner(seedOf(vectors.keys.primary.seed));
    const donnees: Donnees = {
      ok: false,
      motif: 'autre_domaine',
      domaine: 'a.fr, b.fr',
      essai: false,
      quand: '',
      emis: 1795342440,
      revalider: 1795428840,
      sursis: 2592000,
      hote: 'c.fr',
      produit: 'mon-theme',
      nonce: 'abcdefghijklmnop',
    };
    expect(signDonnees(donnees, primary)).toEqual(signDonnees(donnees, noble));
  });

  it('refuses a seed that is not 32 bytes, with an exact message', () => {
    expect(() => createNodeSigner(new Uint8Array(31))).toThrow('seed: expected 32 bytes, got 31');
    expect(() => createNodeSigner('seed' as unknown as Uint8Array)).toThrow('seed: expected a Uint8Array, got string');
  });

  it('refuses a message that is not bytes', () => {
    expect(() => primary.sign('x' as unknown as Uint8Array)).toThrow('message: expected a Uint8Array, got string');
  });
});
