import { ValidationError } from './validation-error.js';

/**
 * The canonical form that the signature covers (docs/protocol.md#canonical-form).
 *
 * It is `JSON.stringify` over keys sorted by code point, which is also what PHP's
 * `json_encode($sorted, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS)`
 * prints, byte for byte:
 * - keys sorted by Unicode code point, which is the byte order of their UTF-8 form (never a locale
 *   compare, and not JavaScript's default UTF-16 order, which puts U+10000.. before U+E000..);
 * - no whitespace; `/` not escaped; non-ASCII (U+2028 and U+2029 included) kept as raw UTF-8;
 *   control characters escaped as JSON requires (`\n`, `\u0001`, lower-case hex);
 * - integers in decimal. Other numbers are refused: a float has no single spelling shared by
 *   JavaScript and PHP, and `donnees` never holds one.
 * Values that JSON cannot carry the same way everywhere (lone surrogates, which are not UTF-8;
 * `undefined`; non-plain objects) are refused with a ValidationError rather than guessed at.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$', 0);
}

/** The UTF-8 bytes of the canonical form: what Ed25519 signs. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

/** Deeper than any verdict will ever be; stops a hostile cyclic or deep value early. */
const MAX_DEPTH = 32;

// A lone surrogate has no UTF-8 form: PHP's json_encode fails on it and TextEncoder would
// silently turn it into U+FFFD, so two implementations would sign different bytes.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function write(value: unknown, path: string, depth: number): string {
  if (depth > MAX_DEPTH) {
    throw new ValidationError('donnees', `${path}: nested deeper than ${MAX_DEPTH} levels`);
  }
  switch (typeof value) {
    case 'string':
      return writeString(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw new ValidationError('donnees', `${path}: expected an integer, got ${String(value)}`);
      }
      // -0 prints as 0, as in PHP.
      return String(value === 0 ? 0 : value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        return `[${value.map((item, index) => write(item, `${path}[${index}]`, depth + 1)).join(',')}]`;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new ValidationError('donnees', `${path}: expected a plain object`);
      }
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .sort(compareCodePoints)
        .map((key) => `${writeString(key, path)}:${write(record[key], `${path}.${key}`, depth + 1)}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new ValidationError('donnees', `${path}: ${typeof value} has no JSON form`);
  }
}

function writeString(value: string, path: string): string {
  if (LONE_SURROGATE.test(value)) {
    throw new ValidationError('donnees', `${path}: string holds a lone surrogate (not valid UTF-8)`);
  }
  // JSON.stringify escapes exactly `"`, `\` and U+0000..U+001F (short forms where JSON has them,
  // `\u00XX` in lower-case hex otherwise) and leaves `/`, DEL, U+2028/2029 and the rest raw.
  return JSON.stringify(value);
}

/** Orders two strings by Unicode code point, i.e. by the bytes of their UTF-8 forms. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Below U+D800 and above U+DFFF UTF-16 code units order like code points; a surrogate
    // (an astral code point, U+10000 and up) must sort after every BMP unit above U+DFFF.
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}
