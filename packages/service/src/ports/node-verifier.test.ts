import { randomBytes } from 'node:crypto';
import { verifySignature } from '@licence/core';
import { readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../../test/harness.js';
import { checkBuyerToken, makeBuyerToken } from '../buyer/index.js';
import { createNodeSigner } from './node-signer.js';
import { createNodeVerifier, type Verifier } from './node-verifier.js';

/**
 * The server's verifier (node:crypto) against core's pure one (noble), which the clients keep: the
 * same answer on every third-party case and on every kind of buyer token, so moving the server to
 * node:crypto changed what it costs, not what it accepts (docs/protocol.md#signature).
 */

const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

/** Core's verifier with the `Verifier` shape: the reference the node one is compared with. */
const coreVerifier = (publicKey: Uint8Array): Verifier => ({
  publicKey,
  verify: (signature, message) => verifySignature(signature, message, publicKey),
});

interface WycheproofFile {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: string }[] }[];
}

interface RfcVector {
  pub: string;
  msg: string;
  sig: string;
}

describe('createNodeVerifier against core verifySignature', () => {
  it('agrees on every Wycheproof ed25519 case, and both follow the file (strict RFC 8032)', () => {
    const file = readExternalJson<WycheproofFile>('wycheproof/ed25519_test.json');
    let checked = 0;
    for (const group of file.testGroups) {
      const node = createNodeVerifier(hex(group.publicKey.pk));
      for (const test of group.tests) {
        const [signature, message] = [hex(test.sig), hex(test.msg)];
        const answer = node.verify(signature, message);
        expect(answer, `tcId ${test.tcId}`).toBe(verifySignature(signature, message, hex(group.publicKey.pk)));
        expect(answer, `tcId ${test.tcId}`).toBe(test.result === 'valid');
        checked += 1;
      }
    }
    expect(checked).toBe(file.numberOfTests);
  });

  it('verifies the four RFC 8032 7.1 vectors, and refuses each with one bit flipped', () => {
    const rfc = readExternalJson<RfcVector[]>('rfc8032/rfc8032-ed25519.json');
    expect(rfc).toHaveLength(4);
    for (const vector of rfc) {
      const node = createNodeVerifier(hex(vector.pub));
      expect(node.verify(hex(vector.sig), hex(vector.msg))).toBe(true);
      const flipped = hex(vector.sig);
      flipped[0] = (flipped[0] ?? 0) ^ 1;
      expect(node.verify(flipped, hex(vector.msg))).toBe(false);
      expect(verifySignature(flipped, hex(vector.msg), hex(vector.pub))).toBe(false);
    }
  });

  it('gives checkBuyerToken the same answer as core on valid and forged tokens', () => {
    const signer = createNodeSigner(TEST_SEED);
    const other = createNodeSigner(new Uint8Array(32).fill(9));
    const expires = 1_795_400_000;
    const valid = makeBuyerToken(signer, { keyId: '42', hint: 'AB12' }, expires);
    const signature = Buffer.from(valid.split('.')[1] ?? '', 'base64url');
    const flipped = Buffer.from(signature);
    flipped[10] = (flipped[10] ?? 0) ^ 0x40;
    const payload = Buffer.from('9999999999.1.ABCD').toString('base64url');
    const tokens = {
      valid,
      // The audit's forgery (docs/protocol.md#buyer-links): well formed, 64 bytes of signature.
      'forged, random signature': `${payload}.${randomBytes(64).toString('base64url')}`,
      'forged, zero signature': `${payload}.${Buffer.alloc(64).toString('base64url')}`,
      'a valid signature on another payload': `${payload}.${signature.toString('base64url')}`,
      'one bit of the signature flipped': `${valid.split('.')[0]}.${flipped.toString('base64url')}`,
      "another key's token": makeBuyerToken(other, { keyId: '42', hint: 'AB12' }, expires),
    };
    const node = createNodeVerifier(signer.publicKey);
    const core = coreVerifier(signer.publicKey);
    for (const [name, token] of Object.entries(tokens)) {
      const answer = checkBuyerToken(node, token, expires - 1);
      expect(answer, name).toEqual(checkBuyerToken(core, token, expires - 1));
      expect(answer.status, name).toBe(name === 'valid' ? 'valid' : 'invalid');
    }
  });

  it('is false for a signature of the wrong length, and throws only for what is not bytes', () => {
    const node = createNodeVerifier(createNodeSigner(TEST_SEED).publicKey);
    expect(node.verify(new Uint8Array(63), new Uint8Array(0))).toBe(false);
    expect(node.verify(new Uint8Array(65), new Uint8Array(0))).toBe(false);
    expect(() => node.verify('sig' as unknown as Uint8Array, new Uint8Array(0))).toThrow(
      'signature: expected a Uint8Array, got string',
    );
    expect(() => createNodeVerifier(new Uint8Array(31))).toThrow('publicKey: expected 32 bytes, got 31');
  });

  it('keeps its own copy of the key: changing the caller bytes afterwards changes nothing', () => {
    const signer = createNodeSigner(TEST_SEED);
    const bytes = signer.publicKey.slice();
    const node = createNodeVerifier(bytes);
    bytes.fill(0);
    const message = new TextEncoder().encode('licence');
    expect(node.verify(signer.sign(message), message)).toBe(true);
    expect(node.publicKey).toEqual(signer.publicKey);
  });
});
