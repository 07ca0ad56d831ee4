/**
 * IP addresses as they appear in a `hote` (docs/protocol.md#host-normalisation, #test-hosts): only
 * the forms the WHATWG URL parser serialises, never the many forms it accepts on input (`127.1`,
 * `0x7f.1`, `2130706433` all come out as `127.0.0.1`). So these parsers are strict on purpose:
 * anything else is not an IP address here, and a lookalike string can never be taken for one.
 *
 * - IPv4: `a.b.c.d`, four decimal numbers 0..255 without leading zeros (WHATWG URL "IPv4
 *   serializer").
 * - IPv6: in brackets, lower-case hex pieces of 1 to 4 digits, at most one `::` (WHATWG URL
 *   "IPv6 serializer" compresses the longest run of zero pieces and never writes an embedded
 *   IPv4 part: `[::ffff:127.0.0.1]` is serialised `[::ffff:7f00:1]`). Uncompressed or
 *   not-longest-run forms are accepted too: they name the same address.
 */

/** An IPv4 address as an unsigned 32-bit number. */
export interface Ipv4Address {
  readonly kind: 'ipv4';
  readonly value: number;
}

/** An IPv6 address as its eight 16-bit pieces (RFC 4291 2.2). */
export interface Ipv6Address {
  readonly kind: 'ipv6';
  readonly pieces: readonly number[];
}

export type IpAddress = Ipv4Address | Ipv6Address;

const IPV4_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_PIECE = /^[0-9a-f]{1,4}$/;

/** `a.b.c.d` (WHATWG serialisation) to a number, or null. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    // Multiplication, not `<<`: bitwise operators would make the top bit a sign bit.
    value = value * 256 + n;
  }
  return value;
}

function parsePieces(text: string): number[] | null {
  if (text === '') return [];
  const pieces: number[] = [];
  for (const piece of text.split(':')) {
    if (!IPV6_PIECE.test(piece)) return null;
    pieces.push(parseInt(piece, 16));
  }
  return pieces;
}

/** `[...]` (WHATWG serialisation, brackets included) to eight pieces, or null. */
export function parseIpv6(text: string): number[] | null {
  if (text.length < 4 || !text.startsWith('[') || !text.endsWith(']')) return null;
  const inner = text.slice(1, -1);
  const gap = inner.indexOf('::');
  if (gap === -1) {
    const pieces = parsePieces(inner);
    return pieces !== null && pieces.length === 8 ? pieces : null;
  }
  if (inner.indexOf('::', gap + 1) !== -1) return null;
  const head = parsePieces(inner.slice(0, gap));
  const tail = parsePieces(inner.slice(gap + 2));
  // `::` stands for at least one zero piece (RFC 4291 2.2 item 2).
  if (head === null || tail === null || head.length + tail.length > 7) return null;
  const zeros = new Array<number>(8 - head.length - tail.length).fill(0);
  return [...head, ...zeros, ...tail];
}

/** The address a `hote` names when it is an IP address (IPv6 in brackets), else null. */
export function parseIpHost(hote: string): IpAddress | null {
  if (hote.startsWith('[')) {
    const pieces = parseIpv6(hote);
    return pieces === null ? null : { kind: 'ipv6', pieces };
  }
  const value = parseIpv4(hote);
  return value === null ? null : { kind: 'ipv4', value };
}

/** True when `address` lies in `base`/`prefixLength` (both IPv4, as numbers). */
export function ipv4InCidr(address: number, base: number, prefixLength: number): boolean {
  if (prefixLength === 0) return true;
  const size = 2 ** (32 - prefixLength);
  return Math.floor(address / size) === Math.floor(base / size);
}

/** True when `pieces` lies in `base`/`prefixLength` (both IPv6, as eight pieces). */
export function ipv6InCidr(pieces: readonly number[], base: readonly number[], prefixLength: number): boolean {
  let bits = prefixLength;
  for (let i = 0; i < 8 && bits > 0; i += 1) {
    const take = Math.min(bits, 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((pieces[i] ?? 0) & mask) !== ((base[i] ?? 0) & mask)) return false;
    bits -= take;
  }
  return true;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0xffff, 0, 0] as const;

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address `::ffff:a.b.c.d` (RFC 4291 2.5.5.2,
 * `::ffff:0:0/96`), or null for any other IPv6 address.
 */
export function mappedIpv4(pieces: readonly number[]): number | null {
  if (!ipv6InCidr(pieces, MAPPED_PREFIX, 96)) return null;
  return (pieces[6] ?? 0) * 0x10000 + (pieces[7] ?? 0);
}

/** A number back to `a.b.c.d`. */
export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
