import { typeName, ValidationError } from './validation-error.js';

/**
 * Staging patterns (docs/protocol.md#staging-hosts): host names whose leftmost label may hold one
 * `*`. These parsers check a pattern once, where it enters (an admin body, LICENCE_STAGING_HOSTS),
 * and give it in the one form matchesStagingPattern expects. Messages name the field first and
 * quote the pattern: a pattern is configuration, never a secret.
 */

/** The most patterns one list holds (a product's `staging`, LICENCE_STAGING_HOSTS). */
export const MAX_STAGING_PATTERNS = 50;

/** RFC 1035 2.3.4: 63 octets a label, 253 characters a name written without its final dot. */
const MAX_PATTERN_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/**
 * One pattern: trimmed, ASCII letters lower-cased, one trailing dot removed, then checked
 * (docs/protocol.md#staging-hosts): labels of `a-z 0-9 -` (an internationalised name in punycode),
 * 1 to 63 characters, none starting or ending with `-` (a `-` next to the `*` is fine); at most
 * 253 characters; at most one `*`, in the leftmost label only; at least two labels, and two after
 * a wildcard label (`*.com` would cover a whole TLD); not an IP address. Returns the normalised
 * pattern or throws a ValidationError on `field`.
 */
export function parseStagingPattern(field: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new ValidationError(field, `${field}: expected a string, got ${typeName(value)}`);
  }
  // Only ASCII letters are lower-cased: String#toLowerCase maps a few non-ASCII letters to ASCII
  // (U+212A KELVIN SIGN to `k`), which would let a look-alike through instead of refusing it.
  const trimmed = value.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  const pattern = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  if (pattern === '') {
    throw new ValidationError(field, `${field}: expected a host name pattern, got an empty string`);
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ValidationError(field, `${field}: a pattern is at most 253 characters, got ${pattern.length}`);
  }
  checkLabels(field, pattern);
  return pattern;
}

function checkLabels(field: string, pattern: string): void {
  const fail = (rule: string): never => {
    throw new ValidationError(field, `${field}: ${JSON.stringify(pattern)} ${rule}`);
  };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the test: any character outside ASCII
  if (/[^\x00-\x7f]/.test(pattern))
    fail('holds a non-ASCII character: write an internationalised name in punycode (xn--)');
  if (/[^a-z0-9.*-]/.test(pattern)) fail('holds a character other than a-z, 0-9, "-", "." and "*"');
  const labels = pattern.split('.');
  if (labels.includes('')) fail('has an empty label');
  const stars = pattern.split('*').length - 1;
  if (stars > 1) fail('holds more than one "*"');
  if (labels.slice(1).some((label) => label.includes('*'))) fail('has a "*" outside its leftmost label');
  if (labels.some((label) => label.length > MAX_LABEL_LENGTH)) fail('has a label longer than 63 characters');
  if (labels.some((label) => label.startsWith('-') || label.endsWith('-'))) {
    fail('has a label that starts or ends with "-"');
  }
  // The WHATWG URL parser reads a host whose last label is a number as an IPv4 address
  // (docs/protocol.md#host-normalisation), so such a pattern could only ever name an IP address.
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/.test(labels[labels.length - 1] ?? '')) {
    fail('ends in a number: an IP address, not a host name');
  }
  if (stars === 1 && labels.length < 3) fail('needs at least two labels after the wildcard label');
  if (labels.length < 2) fail('needs at least two labels');
}

/**
 * A JSON array of patterns (a product's `staging`): at most 50, each parsed by parseStagingPattern
 * (its messages name `field` itself and quote the pattern at fault), duplicates after
 * normalisation dropped, the first occurrence kept in place.
 */
export function parseStagingPatterns(field: string, value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(field, `${field}: expected an array of host name patterns, got ${typeName(value)}`);
  }
  const items: unknown[] = value;
  return uniquePatterns(field, items);
}

/**
 * A comma-separated list (LICENCE_STAGING_HOSTS): blanks around each entry trimmed, an empty or
 * blank text is no pattern at all, an empty entry between commas is refused, then as
 * parseStagingPatterns.
 */
export function parseStagingList(field: string, text: unknown): string[] {
  if (typeof text !== 'string') {
    throw new ValidationError(field, `${field}: expected a string, got ${typeName(text)}`);
  }
  if (text.trim() === '') return [];
  const entries = text.split(',');
  const empty = entries.findIndex((entry) => entry.trim() === '');
  if (empty !== -1) {
    throw new ValidationError(field, `${field}: entry ${empty + 1} of the comma-separated list is empty`);
  }
  return uniquePatterns(field, entries);
}

function uniquePatterns(field: string, items: readonly unknown[]): string[] {
  if (items.length > MAX_STAGING_PATTERNS) {
    throw new ValidationError(field, `${field}: at most ${MAX_STAGING_PATTERNS} patterns, got ${items.length}`);
  }
  const patterns = items.map((item) => parseStagingPattern(field, item));
  return [...new Set(patterns)];
}
