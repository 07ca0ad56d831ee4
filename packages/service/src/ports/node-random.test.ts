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

describe('randomBytes from its pool', () => {
  it('hands each drawn byte out once, across pools, and serves a request larger than a pool', () => {
    // 25 bytes at a time does not divide 4096: draws straddle the end of a pool.
    const draws = Array.from({ length: 1000 }, () => Buffer.from(randomBytes(25)).toString('hex'));
    expect(new Set(draws).size).toBe(1000);
    expect(draws.every((hex) => hex.length === 50)).toBe(true);
    expect(randomBytes(5000)).toHaveLength(5000);
    expect(randomBytes(0)).toHaveLength(0);
  });

  it('gives a copy, never a view of the pool that would expose the bytes handed to others', () => {
    const bytes = randomBytes(8);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(8);
  });
});
