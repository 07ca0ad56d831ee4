import { typeName, ValidationError } from './validation-error.js';

/**
 * The last second whose ISO 8601 form keeps a four-digit year: 9999-12-31T23:59:59Z. Beyond it
 * `Date#toISOString` switches to the expanded `+010000-...` form, which is not the format
 * docs/protocol.md#verdict fixes, so such a time is refused rather than formatted differently.
 */
export const MAX_QUAND_SECONDS = 253402300799;

/**
 * `quand` of a verdict (docs/protocol.md#verdict): ISO 8601 in UTC, to the second, with `Z` and no
 * fraction, e.g. `2026-11-22T10:14:00Z`.
 *
 * Pure: `new Date(ms)` with an argument reads no clock. The input must be an integer number of
 * seconds from 0 (1970-01-01T00:00:00Z) to `MAX_QUAND_SECONDS`, else a `ValidationError`.
 */
export function formatQuand(seconds: number): string {
  const value: unknown = seconds;
  if (typeof value !== 'number') {
    throw new ValidationError('quand', `quand: expected a number, got ${typeName(value)}`);
  }
  if (!Number.isInteger(value) || value < 0 || value > MAX_QUAND_SECONDS) {
    throw new ValidationError(
      'quand',
      `quand: expected an integer from 0 to ${MAX_QUAND_SECONDS}, got ${String(value)}`,
    );
  }
  // toISOString always gives `YYYY-MM-DDTHH:mm:ss.sssZ` for years 0000-9999 (ECMA-262, "Date
  // Time String Format"); the milliseconds are `.000` for a whole number of seconds, so dropping
  // them loses nothing.
  return `${new Date(value * 1000).toISOString().slice(0, 19)}Z`;
}
