import { describe, expect, it } from 'vitest';
import { randomBytes } from './node-random.js';

describe('randomBytes', () => {
  it('gives a plain Uint8Array of the length asked, different each time', () => {
    const first = randomBytes(16);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(first)).toBe(false);
    expect(first).toHaveLength(16);
    expect(Buffer.from(randomBytes(16)).equals(Buffer.from(first))).toBe(false);
  });
});
