import { describe, expect, it } from 'vitest';
import { hashKey } from './key-hash.js';

describe('hashKey (docs/protocol.md#key-lifecycle)', () => {
  it('is SHA-256 of the normalised key in lower-case hex', () => {
    // sha256("abc"), FIPS 180-2 appendix B.1.
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey('ABCDE')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey('ABCDE')).not.toBe(hashKey('ABCDF'));
  });
});
