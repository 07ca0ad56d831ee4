import { getDomain } from 'tldts';
import { formatIpv4, mappedIpv4, parseIpHost } from './ip-address.js';
import { isTestIpAddress } from './test-host.js';
import { typeName, ValidationError } from './validation-error.js';

/**
 * tldts 7 options (tldts-core `options.ts`):
 * - `allowPrivateDomains: true`: docs/protocol.md#host-normalisation, the PSL's private section
 *   counts, so `a.myshopify.com` and `b.myshopify.com` are two domains, `myshopify.com` none.
 * - `extractHostname: false`: the input is already a hostname (our `hote`), not a URL; tldts then
 *   skips its own URL extraction and its hostname validation (which, unlike the WHATWG parser,
 *   refuses a label that starts or ends with `-`). Validation is ours (normalize-host.ts).
 * ICANN rules stay on (the default). A name under no rule gets the PSL's implicit `*` rule, so
 * `exemple.zzz` and `foo.local` are registrable domains.
 */
const TLDTS_OPTIONS = { allowPrivateDomains: true, extractHostname: false } as const;

/**
 * The registrable domain of a normalised `hote` (docs/protocol.md#host-normalisation): the domain a
 * licence binds to.
 *
 * - A name: tldts `getDomain` (public suffix + one label), or null when the name is itself a
 *   public suffix (`co.uk`, `github.io`), is a single label, or has an empty label (`.x.fr`: the
 *   PSL test file expects null for a leading dot; a `hote` never has one).
 * - An IP address in a test range of docs/protocol.md#test-hosts (loopback, private, link-local,
 *   `0.0.0.0`, `[::]`...): null, it names no site.
 * - Any other IP address is its own domain (docs/protocol.md#host-normalisation), IPv6 in brackets;
 *   an IPv4-mapped IPv6 address (`[::ffff:808:808]`) is the IPv4 address it carries (`8.8.8.8`), as
 *   docs/protocol.md#rate-limit counts it for rate limits (RFC 4291 2.5.5.2: it is that IPv4 host).
 *
 * Expects the lower-case ASCII form `normalizeHost` produces; it does not lower-case or convert
 * IDN itself.
 */
export function registrableDomain(hote: string): string | null {
  if (typeof hote !== 'string') {
    throw new ValidationError('hote', `hote: expected a string, got ${typeName(hote)}`);
  }
  const ip = parseIpHost(hote);
  if (ip !== null) {
    if (isTestIpAddress(ip)) return null;
    if (ip.kind === 'ipv6') {
      const mapped = mappedIpv4(ip.pieces);
      if (mapped !== null) return formatIpv4(mapped);
    }
    return hote;
  }
  if (hote.split('.').includes('')) return null;
  return getDomain(hote, TLDTS_OPTIONS);
}
