import { type IpAddress, ipv4InCidr, ipv6InCidr, mappedIpv4, parseIpHost, parseIpv4, parseIpv6 } from './ip-address.js';
import { BUILTIN_STAGING_HOSTS } from './staging-builtin.js';
import { isStagingHost } from './staging-match.js';

/**
 * Test and staging hosts (docs/protocol.md#test-hosts): they never consume an activation and answer
 * `essai` true.
 * Every rule matches whole labels (a suffix after a dot, a prefix before a dot), never a
 * substring: `devexemple.fr`, `mydev.exemple.fr`, `test.exemple.fr`, `localhost.fr` and
 * `exemple.dev` are real sites.
 */

/**
 * Name suffixes (docs/protocol.md#test-hosts). `.local`, `.test`, `.example`, `.invalid`,
 * `.localhost` are the RFC 6761 / RFC 6762 special-use names, `.internal` the ICANN private-use
 * TLD, `.home.arpa` RFC 8375. A name equal to a suffix (`home.arpa`) is a test host too: RFC 8375
 * reserves the whole zone, and the single-label ones (`local`, `test`...) are test hosts anyway.
 */
export const TEST_SUFFIXES = ['localhost', 'local', 'test', 'example', 'invalid', 'internal', 'home.arpa'] as const;

/** First labels that mark a staging copy, only when below the registrable domain (docs/protocol.md#test-hosts). */
export const TEST_PREFIXES = ['dev', 'staging', 'preprod'] as const;

/** `[base, prefix length]`: loopback, private (RFC 1918), link-local, shared CGNAT (RFC 6598). */
const TEST_IPV4_RANGES: readonly (readonly [string, number])[] = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
];

/** Loopback, unique local (RFC 4193), link-local (RFC 4291 2.5.6). */
const TEST_IPV6_RANGES: readonly (readonly [string, number])[] = [
  ['[::1]', 128],
  ['[fc00::]', 7],
  ['[fe80::]', 10],
];

function parsedIpv4(text: string): number {
  const value = parseIpv4(text);
  if (value === null) throw new Error(`bad IPv4 range base ${text}`);
  return value;
}

function parsedIpv6(text: string): number[] {
  const pieces = parseIpv6(text);
  if (pieces === null) throw new Error(`bad IPv6 range base ${text}`);
  return pieces;
}

const IPV4_RANGES = TEST_IPV4_RANGES.map(([base, length]) => [parsedIpv4(base), length] as const);
const IPV6_RANGES = TEST_IPV6_RANGES.map(([base, length]) => [parsedIpv6(base), length] as const);

function isTestIpv4(value: number): boolean {
  // `0.0.0.0` alone, not 0.0.0.0/8: it is the "any address" a local server listens on
  // (docs/protocol.md#test-hosts).
  if (value === 0) return true;
  return IPV4_RANGES.some(([base, length]) => ipv4InCidr(value, base, length));
}

/**
 * True for the IP addresses docs/protocol.md#test-hosts counts as test hosts: the IPv4 and IPv6
 * ranges above, `0.0.0.0`, `[::]`, and IPv4-mapped IPv6 forms of the IPv4 ones (`[::ffff:7f00:1]`).
 * Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) are not.
 */
export function isTestIpAddress(address: IpAddress): boolean {
  if (address.kind === 'ipv4') return isTestIpv4(address.value);
  const { pieces } = address;
  if (pieces.every((piece) => piece === 0)) return true;
  const mapped = mappedIpv4(pieces);
  if (mapped !== null) return isTestIpv4(mapped);
  return IPV6_RANGES.some(([base, length]) => ipv6InCidr(pieces, base, length));
}

/**
 * docs/protocol.md#test-hosts, for a normalised `hote` and its registrable domain (from
 * `registrableDomain`), and the built-in staging patterns of docs/protocol.md#staging-hosts
 * (`x.flywheelstaging.com`). Checked before the public-suffix rule of
 * docs/protocol.md#host-normalisation, so `intranet` and `fr` are test hosts. The operator's and a
 * product's own patterns are not known here: decideVerdict applies them.
 */
export function isTestHost(hote: string, registrable: string | null): boolean {
  const ip = parseIpHost(hote);
  if (ip !== null) return isTestIpAddress(ip);
  // A bracketed host that is not an IPv6 address cannot come out of normalizeHost; refuse to
  // call it a test host rather than guess.
  if (hote.startsWith('[')) return false;
  // Single-label names (no dot), `localhost` among them.
  if (!hote.includes('.')) return hote !== '';
  for (const suffix of TEST_SUFFIXES) {
    if (hote === suffix || hote.endsWith(`.${suffix}`)) return true;
  }
  if (isStagingHost(hote, BUILTIN_STAGING_HOSTS)) return true;
  // A prefix counts only when its label lies below the registrable domain: `dev.exemple.fr`
  // (registrable `exemple.fr`) yes, `dev.fr` and `dev.co.uk` (each its own registrable domain)
  // no. The registrable domain is a label-aligned suffix of the host, so "below" is "longer".
  if (registrable === null || hote.length <= registrable.length) return false;
  if (!hote.endsWith(`.${registrable}`)) return false;
  return TEST_PREFIXES.some((prefix) => hote.startsWith(`${prefix}.`));
}
