import { describe, expect, it } from 'vitest';
import * as entry from './index.js';
import { fixNonceForTests, nextNonce, randomNonce } from './request-nonce.js';

describe('randomNonce', () => {
  it('is 22 base64url characters of 128 random bits, new each time (docs/protocol.md#product-and-nonce)', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => randomNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('nextNonce', () => {
  it('is random unless a test fixed it, and then only for that owner', () => {
    const fixed = {};
    const other = {};
    expect(nextNonce(fixed)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    fixNonceForTests(fixed, () => 'nonce_de_ce-test_000000');
    expect(nextNonce(fixed)).toBe('nonce_de_ce-test_000000');
    expect(nextNonce(other)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('leaves the test seam out of the package entry', () => {
    expect(Object.keys(entry)).not.toContain('fixNonceForTests');
    expect(Object.keys(entry)).not.toContain('nextNonce');
    expect(Object.keys(entry)).not.toContain('randomNonce');
  });
});
