import { createNobleSigner, verifySignature } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../../test/harness.js';
import { BUYER_TOKEN_CONTEXT, checkBuyerToken, makeBuyerToken } from './token.js';
import { createNodeSigner } from '../ports/index.js';
import { createNodeVerifier } from '../ports/index.js';

const signer = createNodeSigner(TEST_SEED);
const other = createNodeSigner(new Uint8Array(32).fill(7));
const verifier = createNodeVerifier(signer.publicKey);
const otherVerifier = createNodeVerifier(other.publicKey);
const EXPIRES = 1_795_400_000;
const KEY = { keyId: '42', hint: 'AB12' };
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('makeBuyerToken and checkBuyerToken (docs/protocol.md#buyer-links)', () => {
  it('round-trips the key id and the expiry, URL-safe and compact', () => {
    const token = makeBuyerToken(signer, KEY, EXPIRES);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(token.length).toBeLessThan(120);
    expect(encodeURIComponent(token)).toBe(token);
    expect(checkBuyerToken(verifier, token, EXPIRES - 1)).toEqual({
      status: 'valid',
      keyId: '42',
      hint: 'AB12',
      expires: EXPIRES,
    });
  });

  it('is the same whichever signer implementation signs (Ed25519 is deterministic)', () => {
    const key = { keyId: 'k_7', hint: 'ZZZZ' };
    expect(makeBuyerToken(createNobleSigner(TEST_SEED), key, EXPIRES)).toBe(makeBuyerToken(signer, key, EXPIRES));
  });

  it('is expired from its expiry on, and still names its key', () => {
    const token = makeBuyerToken(signer, KEY, EXPIRES);
    expect(checkBuyerToken(verifier, token, EXPIRES)).toEqual({
      status: 'expired',
      keyId: '42',
      hint: 'AB12',
      expires: EXPIRES,
    });
    expect(checkBuyerToken(verifier, token, EXPIRES + 86_400).status).toBe('expired');
  });

  it('is invalid under another service key: rotating the signing key ends every link', () => {
    const token = makeBuyerToken(other, KEY, EXPIRES);
    expect(checkBuyerToken(otherVerifier, token, EXPIRES - 1).status).toBe('valid');
    expect(checkBuyerToken(verifier, token, EXPIRES - 1)).toEqual({ status: 'invalid' });
  });

  it('is invalid when its payload is changed: another key, a later expiry', () => {
    const token = makeBuyerToken(signer, KEY, EXPIRES);
    const signature = token.split('.')[1] ?? '';
    const changed = [`${EXPIRES}.43.AB12`, `${EXPIRES + 1}.42.AB12`, `0${EXPIRES}.42.AB12`, `${EXPIRES}.42.AB13`];
    for (const payload of [...changed, `${EXPIRES}.42.AB12 `, `${EXPIRES}.42`]) {
      expect(checkBuyerToken(verifier, `${b64url(payload)}.${signature}`, EXPIRES - 1)).toEqual({
        status: 'invalid',
      });
    }
  });

  it('is invalid when its signature is changed, cut, or spelt another way', () => {
    const token = makeBuyerToken(signer, KEY, EXPIRES);
    const [payload = '', signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    // The last character holds 2 unused bits: another letter with the same 4 used bits decodes to
    // the same bytes, and is refused (one spelling per token).
    const last = signature.at(-1) ?? 'A';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? 'A';
    for (const bad of [
      `${payload}.${flipped}`,
      `${payload}.${signature.slice(0, -2)}`,
      `${payload}.${signature.slice(0, -1)}${sibling}`,
      `${payload}.${signature}=`,
      `${payload}.${signature}.x`,
      `${payload}${signature}`,
      `.${signature}`,
      `${payload}.`,
      '',
      'buyer.css',
      `${payload}.${signature.replaceAll('-', '+').replaceAll('_', '/')}`,
      `${payload}.${'A'.repeat(300)}`,
    ]) {
      expect(checkBuyerToken(verifier, bad, EXPIRES - 1)).toEqual({ status: 'invalid' });
    }
  });

  it('never takes a verdict signature for a token, nor a token signature for a verdict', () => {
    // A verdict signs the canonical JSON of `donnees`; the token signs its context line first.
    const payload = `${EXPIRES}.42.AB12`;
    const forged = `${b64url(payload)}.${Buffer.from(signer.sign(new TextEncoder().encode(payload))).toString('base64url')}`;
    expect(checkBuyerToken(verifier, forged, EXPIRES - 1)).toEqual({ status: 'invalid' });
    const token = makeBuyerToken(signer, KEY, EXPIRES);
    const signature = new Uint8Array(Buffer.from(token.split('.')[1] ?? '', 'base64url'));
    const asVerdict = new TextEncoder().encode(`{"ok":true,"token":"${payload}"}`);
    expect(verifySignature(signature, asVerdict, signer.publicKey)).toBe(false);
    expect(verifySignature(signature, new TextEncoder().encode(BUYER_TOKEN_CONTEXT + payload), signer.publicKey)).toBe(
      true,
    );
  });

  it('refuses to make a token of an id a URL could not carry as it is, or of a hint that is none', () => {
    expect(() => makeBuyerToken(signer, { ...KEY, keyId: 'a.b' }, EXPIRES)).toThrow(
      'keyId: expected 1 to 64 characters',
    );
    expect(() => makeBuyerToken(signer, { ...KEY, keyId: '' }, EXPIRES)).toThrow('keyId');
    expect(() => makeBuyerToken(signer, { ...KEY, hint: 'ab12' }, EXPIRES)).toThrow('hint: expected four characters');
    expect(() => makeBuyerToken(signer, KEY, 1.5)).toThrow('expires: expected whole seconds');
  });
});
