import { parseIpHost } from './ip-address.js';
import { typeName, ValidationError } from './validation-error.js';

/**
 * Longest `url` accepted (docs/protocol.md#limits: a bound on the parser's work), counted before
 * the trim in JavaScript string length (UTF-16 code units), as `cle` is counted
 * (docs/protocol.md#key-normalisation).
 */
export const MAX_URL_LENGTH = 2048;

/**
 * DNS limits (RFC 1035 2.3.4: 63 octets a label, 255 octets a name on the wire, so 253
 * characters in text without the root dot). The WHATWG parser does not enforce them; we do
 * (docs/protocol.md#limits), on the punycode form.
 */
export const MAX_LABEL_LENGTH = 63;
export const MAX_HOST_LENGTH = 253;

/**
 * docs/protocol.md#host-normalisation trims white space: we strip what the WHATWG URL parser strips
 * itself: leading and trailing C0 controls and space (U+0000..U+0020), so PHP can do the very same
 * with `trim($s, "\x00..\x20")`. Not `String.prototype.trim`, which also eats U+00A0, U+FEFF...
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls are what this trim removes (see above)
const C0_OR_SPACE_AT_ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;

/** docs/protocol.md#host-normalisation: a value that already names a scheme (RFC 3986 3.1 syntax) followed by `://`. */
const SCHEME_AND_SLASHES = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * What a label may hold once the parser has lower-cased it and turned IDN into punycode. The
 * WHATWG parser lets through `!`, `*`, `$`, `'`... in a host; no real site name has them, so we
 * refuse them (docs/protocol.md#host-normalisation). `_` stays: it occurs in real DNS names.
 */
const LABEL = /^[a-z0-9_-]+$/;

function invalid(message: string): ValidationError {
  return new ValidationError('url', `url: ${message}`);
}

/**
 * The `url` field of a request to `hote` (docs/protocol.md#host-normalisation), byte for byte what
 * every client does:
 *
 * 1. Not a string, longer than 2048 characters, or empty after trimming C0 controls and space:
 *    refused.
 * 2. No `scheme://` at the start: `http://` is put in front (`localhost:3000` is a host and a
 *    port, `exemple.fr/?u=https://x` is `exemple.fr`, `//x.fr` becomes `http:////x.fr`, which the
 *    parser reads as `http://x.fr`).
 * 3. Parsed with the WHATWG URL parser (global `URL`): it lower-cases, maps IDN to punycode
 *    (UTS #46, non-transitional), decodes percent-escapes in the host, drops tabs and newlines,
 *    and reads IPv4 in all its forms (`127.1`, `0x7f.1`, `2130706433`). A parse failure is refused.
 * 4. The scheme must be `http` or `https`. A user name or password is refused: a licence URL
 *    never carries one, and `http://exemple.fr@evil.fr` is a classic spoofing shape.
 * 5. Hostname, port dropped; ONE trailing dot removed.
 * 6. IP addresses (IPv4 dotted, IPv6 in brackets, which it keeps) stop here. A name must have no
 *    empty label, only `[a-z0-9_-]` in each label, labels of at most 63 characters and at most
 *    253 characters in all; then ONE leading `www.` is removed when what remains still has a dot
 *    (`www.fr` stays `www.fr`, `www.www.x.fr` becomes `www.x.fr`).
 *
 * Every refusal is a `ValidationError` on field `url` with a fixed message.
 */
export function normalizeHost(url: unknown): string {
  if (typeof url !== 'string') throw invalid(`expected a string, got ${typeName(url)}`);
  if (url.length > MAX_URL_LENGTH) throw invalid(`longer than ${MAX_URL_LENGTH} characters`);
  const trimmed = url.replace(C0_OR_SPACE_AT_ENDS, '');
  if (trimmed === '') throw invalid('is empty');

  const text = SCHEME_AND_SLASHES.test(trimmed) ? trimmed : `http://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch (cause) {
    // The parser's own message (Node: "Invalid URL") is not part of our contract; keep it as
    // `cause` for debugging and answer with our fixed message.
    throw Object.assign(invalid('not a valid URL'), { cause });
  }

  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') {
    throw invalid(`scheme must be http or https, got ${scheme}`);
  }
  // docs/protocol.md#host-normalisation: userinfo is refused, not dropped. An empty one
  // (`http://@x.fr`) is already gone after parsing and passes.
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalid('must not hold a user name or password');
  }

  // docs/protocol.md#host-normalisation: `hostname` has no port; ONE trailing dot goes (`x.fr.`
  // is `x.fr`, `x.fr..` fails the empty-label rule below).
  let host = parsed.hostname;
  if (host.endsWith('.')) host = host.slice(0, -1);
  // IP addresses are already canonical (WHATWG IPv4/IPv6 serialisers): no label or www rule.
  if (parseIpHost(host) !== null) return host;
  return checkedName(host);
}

/** Step 6 for a name (not an IP address). */
function checkedName(host: string): string {
  const labels = host.split('.');
  if (labels.includes('')) throw invalid('host has an empty label');
  if (!labels.every((label) => LABEL.test(label))) {
    throw invalid('host has a character other than a-z, 0-9, "-" and "_"');
  }
  if (labels.some((label) => label.length > MAX_LABEL_LENGTH)) {
    throw invalid(`host has a label longer than ${MAX_LABEL_LENGTH} characters`);
  }
  if (host.length > MAX_HOST_LENGTH) {
    throw invalid(`host is longer than ${MAX_HOST_LENGTH} characters`);
  }
  // docs/protocol.md#host-normalisation: one leading `www.`, only when what remains still has a
  // dot (`www.fr` stays).
  if (host.startsWith('www.') && host.indexOf('.', 4) !== -1) return host.slice(4);
  return host;
}
