import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashAuthorToken, isAuthorTokenShape, newAuthorToken } from './author-token.js';
import { randomBytes } from '../ports/index.js';

describe('author tokens (docs/protocol.md#authors)', () => {
  it('are lat_ + 43 base64url characters, with a tok_ id of 16, and differ every time', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 50; n += 1) {
      const made = newAuthorToken(randomBytes);
      expect(made.token).toMatch(/^lat_[A-Za-z0-9_-]{43}$/);
      expect(made.id).toMatch(/^tok_[A-Za-z0-9_-]{16}$/);
      expect(isAuthorTokenShape(made.token)).toBe(true);
      expect(made.hash).toBe(createHash('sha256').update(made.token).digest('hex'));
      seen.add(made.token);
    }
    expect(seen.size).toBe(50);
  });

  it('hash as SHA-256, lower-case hex', () => {
    expect(hashAuthorToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('are told from other tokens by their form alone', () => {
    expect(isAuthorTokenShape(`lat_${'a'.repeat(43)}`)).toBe(true);
    expect(isAuthorTokenShape(`lat_${'a'.repeat(42)}`)).toBe(false);
    expect(isAuthorTokenShape(`lat_${'a'.repeat(44)}`)).toBe(false);
    expect(isAuthorTokenShape(`LAT_${'a'.repeat(43)}`)).toBe(false);
    expect(isAuthorTokenShape(`lat_${'a'.repeat(42)}=`)).toBe(false);
    expect(isAuthorTokenShape('test-admin-token-0123456789-abcdefgh')).toBe(false);
  });
});
