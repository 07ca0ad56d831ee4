import { loadSignatureVectors } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { okDonnees, primarySigner as signer, rotationPublicKey as second } from '../test/test-signer.js';
import { canonicalJson } from './canonical-json.js';
import { signDonnees, verifySignature } from './ed25519.js';
import type { Donnees } from './donnees.js';
import { verifyEnvelope } from './verify-envelope.js';
import { ValidationError } from './validation-error.js';

const vectors = loadSignatureVectors();
const publicKey = vectors.keys.primary.publicKey;

describe('verifyEnvelope (signatures.json)', () => {
  const verifyCases = vectors.cases.flatMap((c) => (c.kind === 'verify' ? [c] : []));
  const signCases = vectors.cases.flatMap((c) => (c.kind === 'sign' ? [c] : []));

  it('has the vector cases', () => {
    expect(verifyCases.length).toBeGreaterThanOrEqual(35);
  });

  it.each(verifyCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(verifyEnvelope(c.envelope, c.trustedPublicKeys, c.expect)).toBe(c.valid);
  });

  it.each(signCases.map((c) => [c.name, c] as const))('signed: %s', (_name, c) => {
    const envelope = { donnees: c.donnees, signature: c.signature };
    expect(verifyEnvelope(envelope, [publicKey], { hote: String(c.donnees.hote) })).toBe(true);
  });
});

describe('verifyEnvelope rebuilds the canonical form from the parsed object', () => {
  const donnees = okDonnees();

  it('accepts any key order and whitespace on the wire', () => {
    const envelope = signDonnees(donnees, signer);
    const wire = `{ "signature" : "${envelope.signature}",\n "donnees": ${JSON.stringify(donnees, null, 4)} }`;
    expect(verifyEnvelope(JSON.parse(wire), [signer.publicKey], { hote: 'exemple.fr' })).toBe(true);
  });

  it('is false, never throws, for any mutation of a good envelope', () => {
    const envelope = signDonnees(donnees, signer);
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(donnees) as (keyof Donnees)[])),
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.double(), fc.constant(null)),
        (field, value) => {
          fc.pre(value !== donnees[field] && !(typeof value === 'number' && Object.is(value, donnees[field])));
          const mutated = { ...envelope, donnees: { ...donnees, [field]: value } };
          expect(verifyEnvelope(mutated, [signer.publicKey], { hote: 'exemple.fr' })).toBe(false);
        },
      ),
    );
  });

  it('is false for a float or a lone surrogate smuggled into donnees', () => {
    const envelope = signDonnees(donnees, signer);
    expect(
      verifyEnvelope({ ...envelope, donnees: { ...donnees, x: 1.5 } }, [signer.publicKey], { hote: 'exemple.fr' }),
    ).toBe(false);
    expect(
      verifyEnvelope({ ...envelope, donnees: { ...donnees, x: '\ud800' } }, [signer.publicKey], { hote: 'exemple.fr' }),
    ).toBe(false);
  });
});

describe('verifyEnvelope argument checks (programming errors throw)', () => {
  const good = { hote: 'exemple.fr' };

  it.each([
    ['no keys', [], good, 'trustedPublicKeys: expected a non-empty array of public keys, got array'],
    ['keys not an array', 'key', good, 'trustedPublicKeys: expected a non-empty array of public keys, got string'],
    ['a short key', [new Uint8Array(31)], good, 'trustedPublicKeys[0]: expected 32 bytes, got 31'],
    ['a bad base64 key', [publicKey, 'no!'], good, 'trustedPublicKeys[1]: not canonical padded base64'],
    ['no expectation', [publicKey], null, 'expect: expected an object, got null'],
    ['no host', [publicKey], {}, 'expect.hote: expected a non-empty string, got undefined'],
    ['an empty host', [publicKey], { hote: '' }, 'expect.hote: expected a non-empty string, got string'],
    [
      'a numeric produit',
      [publicKey],
      { hote: 'x.fr', produit: 3 },
      'expect.produit: expected a non-empty string, got number',
    ],
    [
      'an empty nonce',
      [publicKey],
      { hote: 'x.fr', nonce: '' },
      'expect.nonce: expected a non-empty string, got string',
    ],
  ])('%s', (_name, keys, expectation, message) => {
    const call = () => verifyEnvelope({}, keys as never, expectation as never);
    expect(call).toThrow(ValidationError);
    expect(call).toThrow(message);
  });
});

describe('verifyEnvelope with an injected verifier (a client plugs in node:crypto or a memo)', () => {
  const donnees = okDonnees();
  const envelope = signDonnees(donnees, signer);

  it('hands it the signature, the canonical bytes and each trusted key in turn', () => {
    const calls: [Uint8Array, Uint8Array, Uint8Array][] = [];
    const verify = (signature: Uint8Array, message: Uint8Array, key: Uint8Array) => {
      calls.push([signature, message, key]);
      return verifySignature(signature, message, key);
    };
    expect(verifyEnvelope(envelope, [second, signer.publicKey], { hote: 'exemple.fr' }, { verify })).toBe(true);
    expect(calls).toHaveLength(2);
    expect(calls.map(([, , key]) => key)).toEqual([second, signer.publicKey]);
    expect(Buffer.from(calls[0]?.[0] ?? []).toString('base64')).toBe(envelope.signature);
    expect(new TextDecoder().decode(calls[0]?.[1])).toBe(canonicalJson(donnees));
  });

  it('takes its answer: false refuses a good envelope, true accepts a forged one', () => {
    expect(verifyEnvelope(envelope, [signer.publicKey], { hote: 'exemple.fr' }, { verify: () => false })).toBe(false);
    const forged = { ...envelope, donnees: { ...donnees, ok: false } };
    expect(verifyEnvelope(forged, [signer.publicKey], { hote: 'exemple.fr' }, { verify: () => true })).toBe(true);
  });

  it('counts only a boolean true as a good signature', () => {
    const truthy = (() => 1) as unknown as () => boolean;
    expect(verifyEnvelope(envelope, [signer.publicKey], { hote: 'exemple.fr' }, { verify: truthy })).toBe(false);
  });

  it('is not asked about an envelope that fails before the signature (host, shape)', () => {
    let called = 0;
    const verify = () => {
      called += 1;
      return true;
    };
    expect(verifyEnvelope(envelope, [signer.publicKey], { hote: 'autre.fr' }, { verify })).toBe(false);
    expect(
      verifyEnvelope({ donnees, signature: 'short' }, [signer.publicKey], { hote: 'exemple.fr' }, { verify }),
    ).toBe(false);
    expect(called).toBe(0);
  });

  it('refuses options of the wrong type (programming errors throw)', () => {
    const call = (options: unknown) => () =>
      verifyEnvelope(envelope, [signer.publicKey], { hote: 'exemple.fr' }, options as never);
    expect(call(null)).toThrow(ValidationError);
    expect(call(null)).toThrow('options: expected an object, got null');
    expect(call({ verify: 'node' })).toThrow('options.verify: expected a function, got string');
    expect(call({})()).toBe(true);
  });
});
