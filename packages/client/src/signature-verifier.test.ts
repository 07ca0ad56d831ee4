import { canonicalBytes, decodeBase64, verifySignature } from '@licence/core';
import { loadSignatureVectors, readExternalJson } from '@licence/vectors';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseVerifier, forgetVerified, memoized, nobleVerifier, nodeVerifier } from './signature-verifier.js';
import type { Verifier } from './signature-verifier.js';

interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' }[];
  }[];
}

const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const wycheproof = readExternalJson<WycheproofFile>('wycheproof/ed25519_test.json');
const tests = wycheproof.testGroups.flatMap((group) =>
  group.tests.map((test) => ({ ...test, pk: group.publicKey.pk })),
);
const signatures = loadSignatureVectors();

const node = await nodeVerifier();
if (node === null) throw new Error('node:crypto with Ed25519 is expected on Node 20');
const verifiers: [string, Verifier][] = [
  ['node:crypto', node],
  ['noble', nobleVerifier],
];

describe.each(verifiers)('%s verifier', (_name, verifier) => {
  it('agrees with every Wycheproof ed25519 case (strict RFC 8032)', () => {
    expect(tests).toHaveLength(wycheproof.numberOfTests);
    for (const test of tests) {
      expect(verifier.verify(hex(test.sig), hex(test.msg), hex(test.pk)), `tcId ${test.tcId}`).toBe(
        test.result === 'valid',
      );
    }
  });

  it('verifies every signed verdict of signatures.json, and refuses it under another key', () => {
    const primary = decodeBase64(signatures.keys.primary.publicKey, 'key', 32);
    const untrusted = decodeBase64(signatures.keys.untrusted.publicKey, 'key', 32);
    let checked = 0;
    for (const c of signatures.cases) {
      if (c.kind !== 'sign') continue;
      const message = canonicalBytes(c.donnees);
      const signature = decodeBase64(c.signature, 'signature', 64);
      expect(verifier.verify(signature, message, primary), c.name).toBe(true);
      expect(verifier.verify(signature, message, untrusted), c.name).toBe(false);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('is false, never an exception, for wrong lengths and a key that is not a point', () => {
    expect(verifier.verify(new Uint8Array(63), new Uint8Array(0), new Uint8Array(32))).toBe(false);
    expect(verifier.verify(new Uint8Array(64), new Uint8Array(0), new Uint8Array(31))).toBe(false);
    expect(verifier.verify(new Uint8Array(64), new Uint8Array(0), new Uint8Array(32).fill(0xff))).toBe(false);
  });
});

describe('chooseVerifier', () => {
  it('is node:crypto on auto and node here, noble when asked', async () => {
    expect((await chooseVerifier('auto')).name).toBe('node:crypto');
    expect((await chooseVerifier('node')).name).toBe('node:crypto');
    expect(await chooseVerifier('noble')).toBe(nobleVerifier);
    expect(nobleVerifier.verify).toBe(verifySignature);
  });
});

describe('memoized: a signature check once per content per process', () => {
  const primary = decodeBase64(signatures.keys.primary.publicKey, 'key', 32);
  const first = signatures.cases.find((c) => c.kind === 'sign');
  if (first?.kind !== 'sign') throw new Error('no sign case');
  const message = canonicalBytes(first.donnees);
  const signature = decodeBase64(first.signature, 'signature', 64);

  beforeEach(() => forgetVerified());

  it('asks the real verifier once for the same bytes, and again for any other bytes', () => {
    let calls = 0;
    const verify = memoized((s, m, k) => {
      calls += 1;
      return verifySignature(s, m, k);
    });
    expect(verify(signature, message, primary)).toBe(true);
    expect(verify(signature, message, primary)).toBe(true);
    expect(verify(signature.slice(), message.slice(), primary.slice())).toBe(true);
    expect(calls).toBe(1);

    const changed = message.slice();
    changed[changed.length - 2] = (changed[changed.length - 2] ?? 0) ^ 1;
    expect(verify(signature, changed, primary)).toBe(false);
    expect(verify(signature, changed, primary)).toBe(false);
    expect(calls).toBe(3);
  });

  it("keeps its own copies: changing the caller's bytes afterwards cannot make them pass", () => {
    const verify = memoized(verifySignature);
    const bytes = message.slice();
    expect(verify(signature, bytes, primary)).toBe(true);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(verify(signature, bytes, primary)).toBe(false);
  });

  it('is shared by every verifier of the process, and forgets when told', () => {
    let calls = 0;
    const counting = (s: Uint8Array, m: Uint8Array, k: Uint8Array) => {
      calls += 1;
      return verifySignature(s, m, k);
    };
    expect(memoized(counting)(signature, message, primary)).toBe(true);
    expect(memoized(counting)(signature, message, primary)).toBe(true);
    expect(calls).toBe(1);
    forgetVerified();
    expect(memoized(counting)(signature, message, primary)).toBe(true);
    expect(calls).toBe(2);
  });

  it('holds the last 16 good checks', () => {
    let calls = 0;
    const always = memoized(() => {
      calls += 1;
      return true;
    });
    for (let index = 0; index < 17; index += 1) always(new Uint8Array(64).fill(index), message, primary);
    expect(calls).toBe(17);
    always(new Uint8Array(64).fill(16), message, primary);
    expect(calls).toBe(17);
    always(new Uint8Array(64).fill(0), message, primary);
    expect(calls).toBe(18);
  });
});
