import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../test/validation-error-support.js';
import { formatQuand, MAX_QUAND_SECONDS } from './format-quand.js';

// Expected strings were worked out independently of this code (GNU `date -u -d @SECONDS`), not
// copied from its output.
describe('formatQuand', () => {
  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [1, '1970-01-01T00:00:01Z'],
    [86399, '1970-01-01T23:59:59Z'],
    [946684799, '1999-12-31T23:59:59Z'],
    [951782400, '2000-02-29T00:00:00Z'],
    [1677628800, '2023-03-01T00:00:00Z'],
    [1709251199, '2024-02-29T23:59:59Z'],
    [1795342440, '2026-11-22T10:14:00Z'],
    [1835438400, '2028-02-29T12:00:00Z'],
    [2147483647, '2038-01-19T03:14:07Z'],
    [2147483648, '2038-01-19T03:14:08Z'],
    [4102444799, '2099-12-31T23:59:59Z'],
    [253402300799, '9999-12-31T23:59:59Z'],
  ])('formats %i as %s', (seconds, expected) => {
    expect(formatQuand(seconds)).toBe(expected);
  });

  it('stops at the last second with a four-digit year', () => {
    expect(MAX_QUAND_SECONDS).toBe(253402300799);
  });

  it('is ISO 8601 UTC to the second and reads back as the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_QUAND_SECONDS }), (seconds) => {
        const text = formatQuand(seconds);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(text)).toBe(seconds * 1000);
      }),
    );
  });

  it.each([
    [-1, 'quand: expected an integer from 0 to 253402300799, got -1'],
    [1.5, 'quand: expected an integer from 0 to 253402300799, got 1.5'],
    [Number.NaN, 'quand: expected an integer from 0 to 253402300799, got NaN'],
    [Number.POSITIVE_INFINITY, 'quand: expected an integer from 0 to 253402300799, got Infinity'],
    [253402300800, 'quand: expected an integer from 0 to 253402300799, got 253402300800'],
    [Number.MAX_SAFE_INTEGER, 'quand: expected an integer from 0 to 253402300799, got 9007199254740991'],
  ])('refuses %s', (seconds, message) => {
    expectValidationError(() => formatQuand(seconds), 'quand', message);
  });

  it.each([
    ['0', 'quand: expected a number, got string'],
    [null, 'quand: expected a number, got null'],
    [undefined, 'quand: expected a number, got undefined'],
    [[0], 'quand: expected a number, got array'],
    [0n, 'quand: expected a number, got bigint'],
  ])('refuses the non-number %o', (value, message) => {
    // A JavaScript caller can hand anything; the boundary check must not trust the type.
    const call = formatQuand as (value: unknown) => string;
    expectValidationError(() => call(value), 'quand', message);
  });
});
