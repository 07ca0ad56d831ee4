import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../test/validation-error-support.js';
import { validateNonce, validateProduit } from './request-fields.js';
import { ValidationError } from './validation-error.js';

const PRODUIT_ALPHABET = [...'abcdefghijklmnopqrstuvwxyz0123456789._-'];
const NONCE_ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];

describe('validateProduit (docs/protocol.md#product-and-nonce: [a-z0-9._-]{1,64})', () => {
  it('passes an absent produit through as undefined', () => {
    expect(validateProduit(undefined)).toBeUndefined();
  });

  it.each(['a', '0', 'galerie-pro', 'formulaires.v2', 'mon_produit', '.', '-', 'a'.repeat(64)])(
    'accepts %s',
    (value) => {
      expect(validateProduit(value)).toBe(value);
    },
  );

  it('accepts every string of 1 to 64 allowed characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...PRODUIT_ALPHABET), minLength: 1, maxLength: 64 }), (value) => {
        expect(validateProduit(value)).toBe(value);
      }),
    );
  });

  it('refuses any string holding a character outside the set', () => {
    const outside = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 1 })
      .filter((c) => !PRODUIT_ALPHABET.includes(c));
    const allowed = fc.string({ unit: fc.constantFrom(...PRODUIT_ALPHABET), maxLength: 30 });
    fc.assert(
      fc.property(allowed, outside, allowed, (before, bad, after) => {
        expect(() => validateProduit(before + bad + after)).toThrow(ValidationError);
      }),
    );
  });

  it.each([
    ['', 'produit: expected 1 to 64 characters, got 0'],
    ['a'.repeat(65), 'produit: expected 1 to 64 characters, got 65'],
    ['Galerie', 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
    ['galerie pro', 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
    ['galerie/pro', 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
    ['galérie', 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
    // JavaScript's `$` does not match before a final newline (PCRE's does): a trap for ports.
    ['galerie\n', 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
  ])('refuses %j', (value, message) => {
    expectValidationError(() => validateProduit(value), 'produit', message);
  });

  it.each([
    [null, 'produit: expected a string, got null'],
    [42, 'produit: expected a string, got number'],
    [true, 'produit: expected a string, got boolean'],
    [['galerie'], 'produit: expected a string, got array'],
    [{}, 'produit: expected a string, got object'],
  ])('refuses the non-string %j', (value, message) => {
    expectValidationError(() => validateProduit(value), 'produit', message);
  });
});

describe('validateNonce (docs/protocol.md#product-and-nonce: [A-Za-z0-9_-]{16,64})', () => {
  it('passes an absent nonce through as undefined', () => {
    expect(validateNonce(undefined)).toBeUndefined();
  });

  it.each(['AAAAAAAAAAAAAAAA', 'q3V9_xYk-2LmT8pR4sWz1A', '-'.repeat(16), 'z'.repeat(64)])('accepts %s', (value) => {
    expect(validateNonce(value)).toBe(value);
  });

  it('accepts every string of 16 to 64 base64url characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...NONCE_ALPHABET), minLength: 16, maxLength: 64 }), (value) => {
        expect(validateNonce(value)).toBe(value);
      }),
    );
  });

  it.each([
    ['', 'nonce: expected 16 to 64 characters, got 0'],
    ['short', 'nonce: expected 16 to 64 characters, got 5'],
    ['A'.repeat(15), 'nonce: expected 16 to 64 characters, got 15'],
    ['A'.repeat(65), 'nonce: expected 16 to 64 characters, got 65'],
    // Standard base64 is not base64url: `+`, `/` and padding `=` are refused.
    ['AAAAAAAAAAAAAAA+', 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],
    ['AAAAAAAAAAAAAAA/', 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],
    ['AAAAAAAAAAAAAA==', 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],
    ['AAAAAAAA.AAAAAAA', 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],
    ['AAAAAAAAAAAAAAAA\n', 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],
  ])('refuses %j', (value, message) => {
    expectValidationError(() => validateNonce(value), 'nonce', message);
  });

  it.each([
    [null, 'nonce: expected a string, got null'],
    [1234567890123456, 'nonce: expected a string, got number'],
    [['AAAAAAAAAAAAAAAA'], 'nonce: expected a string, got array'],
  ])('refuses the non-string %j', (value, message) => {
    expectValidationError(() => validateNonce(value), 'nonce', message);
  });

  it('never repeats the value in its message', () => {
    const secretLooking = 'SECRETSECRETSECRET+';
    expect(() => validateNonce(secretLooking)).toThrow(/^nonce: /);
    expect(() => validateNonce(secretLooking)).not.toThrow(/SECRET/);
  });
});
