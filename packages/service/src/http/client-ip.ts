import {
  formatIpv4,
  ipv4InCidr,
  ipv6InCidr,
  mappedIpv4,
  parseIpv4,
  parseIpv6,
  ValidationError,
  type IpAddress,
} from '@licence/core';
import type { TrustProxy } from './service-types.js';

/**
 * The client IP (docs/protocol.md#client-address) and the rate-limit bucket it falls in
 * (docs/protocol.md#rate-limit).
 *
 * - The client IP is the socket's peer address. `X-Forwarded-For` is believed only with
 *   `trustProxy`: a hop count N takes the Nth address from the right (fewer entries than N: the
 *   leftmost, as Express's proxy-addr does); a CIDR list walks from the right past trusted
 *   addresses (the socket's own address must be trusted for the header to count at all) and takes
 *   the first untrusted one.
 * - Rate-limit bucket: an IPv4 address as is, IPv6 by its /64 prefix (one customer line usually
 *   holds a whole /64), an IPv4-mapped IPv6 address as the IPv4 it carries.
 *
 * Addresses are parsed with core's strict parsers; the forms Node and proxies write are accepted
 * around them: IPv6 without brackets, upper-case hex, a zone (`%eth0`, dropped), an embedded
 * dotted IPv4 tail (`::ffff:1.2.3.4`, what Node reports for IPv4 on a dual-stack socket), and a
 * port (`1.2.3.4:5678`, `[2001:db8::1]:443`, which some proxies append).
 */

/** An address as the service writes it: canonical text, IPv4-mapped IPv6 as its IPv4. */
export function formatAddress(address: IpAddress): string {
  if (address.kind === 'ipv4') return formatIpv4(address.value);
  const mapped = mappedIpv4(address.pieces);
  if (mapped !== null) return formatIpv4(mapped);
  return formatIpv6(address.pieces);
}

/** RFC 5952 text of eight pieces: lower case, the longest run of two or more zeros as `::`. */
export function formatIpv6(pieces: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (pieces[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && pieces[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = pieces.map((piece) => piece.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

const DOTTED_TAIL = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const IPV4_WITH_PORT = /^(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}):\d{1,5}$/;
const BRACKETED_WITH_PORT = /^(\[[^\]]*\]):\d{1,5}$/;

/** An IP address in any of the forms above, or null when `text` is not one. */
export function parseAddress(text: string): IpAddress | null {
  let value = text.trim();
  const v4port = IPV4_WITH_PORT.exec(value);
  if (v4port?.[1] !== undefined) value = v4port[1];
  const v6port = BRACKETED_WITH_PORT.exec(value);
  if (v6port?.[1] !== undefined) value = v6port[1];

  const v4 = parseIpv4(value);
  if (v4 !== null) return { kind: 'ipv4', value: v4 };

  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const zone = value.indexOf('%');
  if (zone !== -1) value = value.slice(0, zone);
  value = value.toLowerCase();
  // Core's IPv6 parser takes the WHATWG serialisation, which never has a dotted tail: turn
  // `::ffff:1.2.3.4` into `::ffff:102:304` first.
  const dotted = DOTTED_TAIL.exec(value);
  if (dotted?.[1] !== undefined && dotted[2] !== undefined) {
    const tail = parseIpv4(dotted[2]);
    if (tail === null) return null;
    value = `${dotted[1]}${Math.floor(tail / 0x10000).toString(16)}:${(tail % 0x10000).toString(16)}`;
  }
  const pieces = parseIpv6(`[${value}]`);
  return pieces === null ? null : { kind: 'ipv6', pieces };
}

/** A trusted range, compiled from a CIDR, a single address or a proxy-addr style name. */
export interface CompiledCidr {
  readonly kind: 'ipv4' | 'ipv6';
  readonly base: number | readonly number[];
  readonly prefix: number;
}

/** proxy-addr's names for common proxy ranges, so `TRUST_PROXY=loopback,uniquelocal` works. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Compiles `TRUST_PROXY`'s CIDR list (`10.0.0.0/8`, `2001:db8::/32`, `192.0.2.7`, or `loopback`,
 * `linklocal`, `uniquelocal`). A bad entry throws a ValidationError naming it, so a server can
 * refuse to start with one clear line (docs/protocol.md#configuration).
 */
export function compileCidrs(cidrs: readonly string[]): CompiledCidr[] {
  const compiled: CompiledCidr[] = [];
  for (const raw of cidrs) {
    const entry = raw.trim();
    const named = NAMED_RANGES[entry.toLowerCase()];
    if (named !== undefined) {
      compiled.push(...compileCidrs(named));
      continue;
    }
    compiled.push(compileCidr(entry));
  }
  return compiled;
}

function compileCidr(entry: string): CompiledCidr {
  const bad = (why: string) =>
    new ValidationError('trustProxy', `trustProxy: ${JSON.stringify(entry)} is not a CIDR (${why})`);
  const slash = entry.indexOf('/');
  const addressText = slash === -1 ? entry : entry.slice(0, slash);
  const address = parseAddress(addressText);
  if (address === null || addressText.includes(':') !== (address.kind === 'ipv6')) {
    throw bad('expected an IPv4 or IPv6 address');
  }
  const max = address.kind === 'ipv4' ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const prefixText = entry.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
      throw bad(`expected a prefix length from 0 to ${max}`);
    }
    prefix = Number(prefixText);
  }
  return address.kind === 'ipv4'
    ? { kind: 'ipv4', base: address.value, prefix }
    : { kind: 'ipv6', base: address.pieces, prefix };
}

/** True when `address` lies in one of `ranges`; an IPv4-mapped IPv6 address also matches IPv4 ranges. */
export function isTrusted(address: IpAddress, ranges: readonly CompiledCidr[]): boolean {
  const mapped = address.kind === 'ipv6' ? mappedIpv4(address.pieces) : null;
  return ranges.some((range) => {
    if (range.kind === 'ipv4' && typeof range.base === 'number') {
      if (address.kind === 'ipv4') return ipv4InCidr(address.value, range.base, range.prefix);
      return mapped !== null && ipv4InCidr(mapped, range.base, range.prefix);
    }
    if (range.kind === 'ipv6' && typeof range.base !== 'number' && address.kind === 'ipv6') {
      return ipv6InCidr(address.pieces, range.base, range.prefix);
    }
    return false;
  });
}

/**
 * The largest trusted hop count, for `TRUST_PROXY` and `createService`'s `trustProxy` alike
 * (docs/protocol.md#client-address: 1 to 32, 0 meaning no proxy). A real chain (a CDN, a load
 * balancer, an ingress) is a handful of hops; a count beyond the chain's length makes the leftmost
 * entry the address, and the leftmost entry is the one any client writes itself. So a large count
 * is a mistake that would quietly trust the client, and is refused rather than accepted.
 */
export const MAX_TRUST_PROXY_HOPS = 32;

/** `trustProxy` ready for use: a hop count, or the compiled ranges. */
export type CompiledTrustProxy = { readonly hops: number } | { readonly ranges: readonly CompiledCidr[] };

/** Checks and compiles ServiceOptions `trustProxy`; throws ValidationError on a bad value. */
export function compileTrustProxy(trustProxy: TrustProxy | undefined): CompiledTrustProxy | undefined {
  if (trustProxy === undefined) return undefined;
  if ('hops' in trustProxy) {
    const { hops } = trustProxy;
    if (!Number.isInteger(hops) || hops < 0 || hops > MAX_TRUST_PROXY_HOPS) {
      throw new ValidationError(
        'trustProxy',
        `trustProxy: hops must be an integer from 0 to ${MAX_TRUST_PROXY_HOPS}, got ${String(hops)}`,
      );
    }
    return { hops };
  }
  return { ranges: compileCidrs(trustProxy.cidrs) };
}

/**
 * The client IP of a request (docs/protocol.md#client-address), as canonical text. The socket
 * address when no proxy is trusted. An `X-Forwarded-For` entry that is not an IP address stops the
 * walk: the address before it (the nearest one already accepted) is taken, so a made-up string
 * never becomes a rate-limit bucket or a logged "IP" (our decision; proxy-addr would return the
 * string).
 */
export function clientIp(
  socketIp: string,
  forwardedFor: string | undefined,
  trust: CompiledTrustProxy | undefined,
): string {
  const socket = parseAddress(socketIp);
  // An adapter that hands us something that is not an address (a test harness, a Unix socket):
  // use it as given; it is still one bucket per value.
  const socketText = socket === null ? socketIp : formatAddress(socket);
  if (trust === undefined || forwardedFor === undefined) return socketText;
  // Right to left: the nearest proxy's entry first.
  const entries = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .reverse();

  if ('hops' in trust) {
    let chosen = socketText;
    for (let i = 0; i < trust.hops && i < entries.length; i += 1) {
      const address = parseAddress(entries[i] ?? '');
      if (address === null) return chosen;
      chosen = formatAddress(address);
    }
    return chosen;
  }

  // CIDRs: the header counts only when it came from a trusted proxy.
  if (socket === null || !isTrusted(socket, trust.ranges)) return socketText;
  let chosen = socketText;
  for (const entry of entries) {
    const address = parseAddress(entry);
    if (address === null) return chosen;
    chosen = formatAddress(address);
    if (!isTrusted(address, trust.ranges)) return chosen;
  }
  // Every entry trusted: the leftmost one (proxy-addr does the same).
  return chosen;
}

/**
 * The rate-limit bucket of a client IP (docs/protocol.md#rate-limit): IPv4 as is, IPv4-mapped IPv6
 * as its IPv4, other IPv6 as its /64 (`2001:db8:1:2::/64`). Anything else is its own bucket.
 */
export function rateLimitKey(ip: string): string {
  const address = parseAddress(ip);
  if (address === null) return ip;
  if (address.kind === 'ipv4') return formatIpv4(address.value);
  const mapped = mappedIpv4(address.pieces);
  if (mapped !== null) return formatIpv4(mapped);
  return `${formatIpv6([...address.pieces.slice(0, 4), 0, 0, 0, 0]).replace(/::$|:0:0:0:0$/, '')}::/64`;
}
