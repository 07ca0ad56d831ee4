import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { type IpAddress, mappedIpv4, ipv6InCidr, typeName, ValidationError } from '@licence/core';
import { type CompiledCidr, compileCidrs, formatAddress, isTrusted, parseAddress } from '../http/index.js';

/**
 * Where a webhook may be sent (docs/protocol.md#webhooks). A webhook makes the service send a
 * request to a URL someone else chose: without these rules an author token could make it reach the
 * cloud's metadata service (169.254.169.254), the database next door or an admin port on loopback
 * (server-side request forgery). `LICENCE_WEBHOOK_ALLOW_PRIVATE=1` (`allowPrivate`) lifts the
 * address rules and allows `http`, for receivers on the same machine or network (tests, a shop on
 * the LAN).
 *
 * The rules apply twice: to the URL when an endpoint is created (`checkWebhookUrl`), and to every
 * address the host name resolves to when the request connects (`safeLookup`), so a name that
 * resolved to a public address at creation and to 10.0.0.5 later (DNS rebinding) is refused then.
 */

/** The longest URL accepted, in characters (as the stored `href` too). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** The `code` of the error `safeLookup` gives for a refused address. */
export const WEBHOOK_PRIVATE_ADDRESS = 'ERR_WEBHOOK_PRIVATE_ADDRESS';

/** One refused range: the IANA special-purpose registries (RFC 6890) and what each is for. */
interface RefusedRange {
  readonly cidr: string;
  readonly name: string;
  readonly compiled: CompiledCidr;
}

// Order matters only for the name a refusal shows: the broadcast address before 240.0.0.0/4.
const REFUSED_RANGES: readonly RefusedRange[] = [
  ['0.0.0.0/8', 'this network (RFC 1122): 0.0.0.0 reaches the local host on Linux'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'shared address space, carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0/8', 'loopback (RFC 1122)'],
  ['169.254.0.0/16', 'link-local (RFC 3927): the cloud metadata service 169.254.169.254'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0/24', 'documentation, TEST-NET-1 (RFC 5737)'],
  ['192.88.99.0/24', '6to4 relay anycast, deprecated (RFC 7526)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking (RFC 2544)'],
  ['198.51.100.0/24', 'documentation, TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0/24', 'documentation, TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0/4', 'multicast (RFC 5771)'],
  ['255.255.255.255/32', 'limited broadcast (RFC 919)'],
  ['240.0.0.0/4', 'reserved (RFC 1112)'],
  ['::/128', 'unspecified (RFC 4291)'],
  ['::1/128', 'loopback (RFC 4291)'],
  ['64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)'],
  ['100::/64', 'discard-only (RFC 6666)'],
  ['2001::/32', 'Teredo (RFC 4380): tunnels to an IPv4 address'],
  ['2001:2::/48', 'benchmarking (RFC 5180)'],
  ['2001:10::/28', 'ORCHID, not routable (RFC 4843)'],
  ['2001:20::/28', 'ORCHIDv2, not routable (RFC 7343)'],
  ['2001:db8::/32', 'documentation (RFC 3849)'],
  ['2002::/16', '6to4 (RFC 3056): tunnels to an IPv4 address'],
  ['3fff::/20', 'documentation (RFC 9637)'],
  ['fc00::/7', 'unique local, private (RFC 4193)'],
  ['fe80::/10', 'link-local (RFC 4291)'],
  ['fec0::/10', 'site-local, deprecated (RFC 3879)'],
  ['ff00::/8', 'multicast (RFC 4291)'],
].map(([cidr, name]) => ({
  cidr: cidr ?? '',
  name: name ?? '',
  compiled: compileCidrs([cidr ?? ''])[0] as CompiledCidr,
}));

/** The refused ranges, for the docs and the console: `{cidr, name}`. */
export const REFUSED_WEBHOOK_RANGES: readonly { readonly cidr: string; readonly name: string }[] = REFUSED_RANGES.map(
  ({ cidr, name }) => ({ cidr, name }),
);

const GLOBAL_UNICAST = compileCidrs(['2000::/3']);
const NOT_GLOBAL = { cidr: 'outside 2000::/3', name: 'not global unicast (RFC 4291 2.4)' } as const;
// IPv6 forms that carry an IPv4 address in their last 32 bits: the IPv4 decides.
const COMPATIBLE_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0] as const;
const NAT64_PREFIX = [0x64, 0xff9b, 0, 0, 0, 0, 0, 0] as const;

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped `::ffff:a.b.c.d` (RFC 4291 2.5.5.2),
 * IPv4-compatible `::a.b.c.d` (deprecated, 2.5.5.1; `::` and `::1` fall in it and come out as
 * 0.0.0.0 and 0.0.0.1, refused as "this network") and the NAT64 well-known prefix
 * `64:ff9b::/96` (RFC 6052), which a NAT64 gateway forwards to that IPv4 address.
 */
function embeddedIpv4(pieces: readonly number[]): number | null {
  const mapped = mappedIpv4(pieces);
  if (mapped !== null) return mapped;
  if (ipv6InCidr(pieces, COMPATIBLE_PREFIX, 96) || ipv6InCidr(pieces, NAT64_PREFIX, 96)) {
    return (pieces[6] ?? 0) * 0x10000 + (pieces[7] ?? 0);
  }
  return null;
}

/** Why an address is refused (`{cidr, name}`), or null for a public one. */
export function refusedRange(address: IpAddress): { readonly cidr: string; readonly name: string } | null {
  const direct = rangeOf(address);
  if (direct !== null || address.kind === 'ipv4') return direct;
  const ipv4 = embeddedIpv4(address.pieces);
  if (ipv4 !== null) return rangeOf({ kind: 'ipv4', value: ipv4 });
  // Beyond the listed ranges, IPv6 outside the global unicast space is unassigned or special.
  return isTrusted(address, GLOBAL_UNICAST) ? null : NOT_GLOBAL;
}

function rangeOf(address: IpAddress): { readonly cidr: string; readonly name: string } | null {
  const range = REFUSED_RANGES.find(({ compiled }) => isTrusted(address, [compiled]));
  return range === undefined ? null : { cidr: range.cidr, name: range.name };
}

/**
 * True when `ip` (any form Node or a URL writes: `::ffff:10.0.0.1`, `[fe80::1%eth0]`) is a public
 * unicast address a webhook may reach. Text that is not an IP address is not public: refused.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip);
  return address !== null && refusedRange(address) === null;
}

export interface WebhookUrlOptions {
  /** `LICENCE_WEBHOOK_ALLOW_PRIVATE=1`: `http` and non-public addresses are accepted. */
  readonly allowPrivate: boolean;
}

const urlError = (message: string) => new ValidationError('url', `url: ${message}`);

/**
 * Checks an endpoint's URL and returns it parsed (store its `href`). Messages never repeat the URL:
 * its query or user part may hold a credential. A host that is an IP address is judged here, since
 * Node connects to an IP literal without calling `lookup` (so `safeLookup` never sees it): the
 * deliverer runs this check again before each request.
 */
export function checkWebhookUrl(url: unknown, options: WebhookUrlOptions): URL {
  if (typeof url !== 'string') throw urlError(`expected a string, got ${typeName(url)}`);
  if (url.length > MAX_WEBHOOK_URL_LENGTH) throw urlError(`longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed === null) throw urlError('expected an absolute URL');
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw urlError(
      `expected an https URL, got the scheme ${JSON.stringify(parsed.protocol.slice(0, -1).slice(0, 20))}`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') throw urlError('must not hold a user name or password');
  // The WHATWG parser starts a fragment at any `#`, and `https://x/#` has an empty `hash`.
  if (url.includes('#')) throw urlError('must not hold a fragment (#)');
  // http(s) URLs always have a host under WHATWG parsing; kept so the rule holds whatever the parser.
  if (parsed.hostname === '') throw urlError('has no host');
  if (parsed.href.length > MAX_WEBHOOK_URL_LENGTH) throw urlError(`longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  if (options.allowPrivate) return parsed;
  // The address first: for `http://169.254.169.254/` "use https" would be the wrong advice.
  checkHost(parsed.hostname);
  if (parsed.protocol === 'http:') throw urlError('expected https (http only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)');
  return parsed;
}

/**
 * Said after every address refusal, as the http refusal says it: whoever tries a receiver on their
 * own machine (`licence webhook add http://127.0.0.1/...`) learns the variable that allows it
 * (docs/protocol.md#destinations), not only the rule.
 */
const ALLOW_PRIVATE_HINT = '(non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)';

function checkHost(hostname: string): void {
  const address = parseAddress(hostname);
  if (address !== null) {
    const range = refusedRange(address);
    if (range !== null) {
      throw urlError(`${formatAddress(address)} is not a public address: ${range.name} ${ALLOW_PRIVATE_HINT}`);
    }
    return;
  }
  // RFC 6761 6.3: `localhost` and its subdomains are loopback, whatever a resolver says.
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === 'localhost' || name.endsWith('.localhost')) {
    throw urlError(`${hostname} is not a public address: loopback (RFC 6761) ${ALLOW_PRIVATE_HINT}`);
  }
}

/** `dns.lookup` asked for every address: the one resolver call `safeLookup` makes (a port, for tests). */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const resolveAll: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/** The error of a refused connection: `code` WEBHOOK_PRIVATE_ADDRESS, naming the host and the address. */
export class WebhookAddressError extends Error {
  override readonly name = 'WebhookAddressError';
  readonly code = WEBHOOK_PRIVATE_ADDRESS;

  constructor(
    readonly hostname: string,
    readonly address: string,
    range: string,
  ) {
    super(`webhook destination ${hostname} resolves to ${address}, not a public address: ${range}`);
  }
}

/**
 * A `lookup` for an http(s) Agent or `request` (Node's `dns.lookup` signature) that resolves the
 * name and refuses when ANY of its addresses is not public: the check happens when the connection
 * is made, on the very addresses it will use, so DNS rebinding after `checkWebhookUrl` cannot reach
 * an internal address. Every address, not just the first, because Node may try each in turn
 * (`autoSelectFamily`, "happy eyeballs"). With `allowPrivate` it only resolves.
 */
export function safeLookup(allowPrivate: boolean, resolve: ResolveAll = resolveAll): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = allowPrivate ? undefined : firstRefused(addresses);
      if (refused !== undefined) {
        return callback(new WebhookAddressError(hostname, refused.address, refused.range), []);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}

function firstRefused(addresses: readonly LookupAddress[]): { address: string; range: string } | undefined {
  for (const { address } of addresses) {
    const parsed = parseAddress(address);
    const range = parsed === null ? { name: 'not an IP address' } : refusedRange(parsed);
    if (range !== null) return { address, range: range.name };
  }
  return undefined;
}
