import { loadKeyVectors } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CROCKFORD_ALPHABET, formatKey, generateKey, KEY_LENGTH } from './generate-key.js';
import { normalizeKey } from './normalize-key.js';
import { ValidationError } from './validation-error.js';

const cases = loadKeyVectors().cases.flatMap((c) => (c.kind === 'generate' ? [c] : []));

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

describe('generateKey (keys.json)', () => {
  it('has the vector cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(6);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const requested: number[] = [];
    const key = generateKey((length) => {
      requested.push(length);
      return fromHex(c.randomHex);
    });
    expect(key).toBe(c.key);
    expect(requested).toEqual([KEY_LENGTH]);
  });
});

describe('generateKey', () => {
  it('is the Crockford alphabet: 32 symbols without I, L, O, U', () => {
    expect(CROCKFORD_ALPHABET).toHaveLength(32);
    expect(CROCKFORD_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('always gives five groups of five that normalise to 25 Crockford characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: KEY_LENGTH, maxLength: KEY_LENGTH }), (bytes) => {
        const key = generateKey(() => bytes);
        expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
        expect(normalizeKey(key)).toBe(key.replaceAll('-', ''));
      }),
    );
  });

  it('refuses a random source that returns the wrong thing', () => {
    expect(() => generateKey(() => new Uint8Array(24))).toThrow('random: expected 25 bytes, got Uint8Array(24)');
    expect(() => generateKey((() => [1, 2]) as unknown as () => Uint8Array)).toThrow(ValidationError);
    expect(() => generateKey('random' as unknown as () => Uint8Array)).toThrow(
      'random: expected a function, got string',
    );
  });

  it('formats any normalised key in groups of five', () => {
    expect(formatKey('ABCDEFGHIJK')).toBe('ABCDE-FGHIJ-K');
    expect(formatKey('')).toBe('');
  });
});
