import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIpv4, ipv4InCidr, ipv6InCidr, mappedIpv4, parseIpHost, parseIpv4, parseIpv6 } from './ip-address.js';

describe('parseIpv4', () => {
  it('reads the dotted-decimal form as an unsigned 32-bit number', () => {
    expect(parseIpv4('0.0.0.0')).toBe(0);
    expect(parseIpv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIpv4('192.168.1.2')).toBe(192 * 2 ** 24 + 168 * 2 ** 16 + 1 * 256 + 2);
  });

  it.each([
    ['127.1', 'too few parts (the parser expands it before we see it)'],
    ['1.2.3.4.5', 'too many parts'],
    ['256.0.0.1', 'part over 255'],
    ['01.2.3.4', 'leading zero (the serialiser never writes one)'],
    ['0x7f.0.0.1', 'hex'],
    ['1.2.3.', 'empty part'],
    ['1.2.3.-4', 'sign'],
    ['1.2.3.4 ', 'trailing space'],
    ['', 'empty'],
    ['a.b.c.d', 'letters'],
    ['1000.2.3.4', 'four digits'],
  ])('refuses %j (%s)', (text) => {
    expect(parseIpv4(text)).toBeNull();
  });

  it('round-trips with formatIpv4 for every 32-bit value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (value) => {
        expect(parseIpv4(formatIpv4(value))).toBe(value);
      }),
    );
  });

  it('formats edge values', () => {
    expect(formatIpv4(0)).toBe('0.0.0.0');
    expect(formatIpv4(0xffffffff)).toBe('255.255.255.255');
    expect(formatIpv4(0x08080808)).toBe('8.8.8.8');
  });
});

describe('parseIpv6', () => {
  it('reads compressed and uncompressed bracketed forms into eight pieces', () => {
    expect(parseIpv6('[::]')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('[::1]')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('[fe80::]')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('[2001:db8::1]')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('[::ffff:7f00:1]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6('[1:2:3:4:5:6:7:8]')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('[1:2:3::6:7:8]')).toEqual([1, 2, 3, 0, 0, 6, 7, 8]);
    expect(parseIpv6('[1:2:3:4:5:6:7::]')).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
  });

  it.each([
    ['::1', 'no brackets'],
    ['[::1', 'no closing bracket'],
    ['[]', 'empty'],
    ['[:]', 'single colon'],
    ['[1::2::3]', 'two ::'],
    ['[1:::2]', 'three colons'],
    ['[:1:2:3:4:5:6:7]', 'leading single colon'],
    ['[1:2:3:4:5:6:7]', 'seven pieces without ::'],
    ['[1:2:3:4:5:6:7:8:9]', 'nine pieces'],
    ['[1:2:3:4::5:6:7:8]', ':: standing for no piece'],
    ['[12345::]', 'piece of five digits'],
    ['[FE80::1]', 'upper case (the serialiser writes lower case)'],
    ['[::ffff:127.0.0.1]', 'embedded IPv4 (the serialiser writes hex)'],
    ['[fe80::1%eth0]', 'zone'],
    ['[g::]', 'not hex'],
  ])('refuses %j (%s)', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });
});

describe('parseIpHost', () => {
  it('tells IPv4, IPv6 and names apart', () => {
    expect(parseIpHost('10.0.0.1')).toEqual({ kind: 'ipv4', value: 0x0a000001 });
    expect(parseIpHost('[::1]')).toEqual({ kind: 'ipv6', pieces: [0, 0, 0, 0, 0, 0, 0, 1] });
    expect(parseIpHost('exemple.fr')).toBeNull();
    expect(parseIpHost('[exemple.fr]')).toBeNull();
    expect(parseIpHost('1.2.3.4.fr')).toBeNull();
  });
});

describe('ipv4InCidr', () => {
  const base = parseIpv4('172.16.0.0') ?? Number.NaN;

  it('includes both ends of the range and excludes the neighbours', () => {
    expect(ipv4InCidr(parseIpv4('172.16.0.0') ?? -1, base, 12)).toBe(true);
    expect(ipv4InCidr(parseIpv4('172.31.255.255') ?? -1, base, 12)).toBe(true);
    expect(ipv4InCidr(parseIpv4('172.15.255.255') ?? -1, base, 12)).toBe(false);
    expect(ipv4InCidr(parseIpv4('172.32.0.0') ?? -1, base, 12)).toBe(false);
  });

  it('handles the high bit, /32 and /0', () => {
    const top = 0xffffffff;
    expect(ipv4InCidr(top, parseIpv4('255.0.0.0') ?? -1, 8)).toBe(true);
    expect(ipv4InCidr(top, top, 32)).toBe(true);
    expect(ipv4InCidr(top - 1, top, 32)).toBe(false);
    expect(ipv4InCidr(12345, 0, 0)).toBe(true);
  });

  it('agrees with a bit-string comparison', () => {
    const bits = (n: number) => n.toString(2).padStart(32, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 32 }),
        (address, b, length) => {
          const expected = bits(address).slice(0, length) === bits(b).slice(0, length);
          expect(ipv4InCidr(address, b, length)).toBe(expected);
        },
      ),
    );
  });
});

describe('ipv6InCidr', () => {
  const fc00 = parseIpv6('[fc00::]') ?? [];
  const fe80 = parseIpv6('[fe80::]') ?? [];

  it('checks a prefix that ends inside a piece', () => {
    expect(ipv6InCidr(parseIpv6('[fdff::1]') ?? [], fc00, 7)).toBe(true);
    expect(ipv6InCidr(parseIpv6('[fe00::]') ?? [], fc00, 7)).toBe(false);
    expect(ipv6InCidr(parseIpv6('[fbff::]') ?? [], fc00, 7)).toBe(false);
    expect(ipv6InCidr(parseIpv6('[febf::]') ?? [], fe80, 10)).toBe(true);
    expect(ipv6InCidr(parseIpv6('[fec0::]') ?? [], fe80, 10)).toBe(false);
    expect(ipv6InCidr(parseIpv6('[fe7f::]') ?? [], fe80, 10)).toBe(false);
  });

  it('checks /128 and /0', () => {
    const one = parseIpv6('[::1]') ?? [];
    expect(ipv6InCidr(one, one, 128)).toBe(true);
    expect(ipv6InCidr(parseIpv6('[::2]') ?? [], one, 128)).toBe(false);
    expect(ipv6InCidr(parseIpv6('[1234::]') ?? [], one, 0)).toBe(true);
  });

  it('agrees with a bit-string comparison', () => {
    const bits = (pieces: readonly number[]) => pieces.map((p) => p.toString(2).padStart(16, '0')).join('');
    const address = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(address, address, fc.integer({ min: 0, max: 128 }), (a, b, length) => {
        const expected = bits(a).slice(0, length) === bits(b).slice(0, length);
        expect(ipv6InCidr(a, b, length)).toBe(expected);
      }),
    );
  });
});

describe('mappedIpv4', () => {
  it('extracts the IPv4 address of ::ffff:0:0/96 only', () => {
    expect(mappedIpv4(parseIpv6('[::ffff:7f00:1]') ?? [])).toBe(0x7f000001);
    expect(mappedIpv4(parseIpv6('[::ffff:0:0]') ?? [])).toBe(0);
    expect(mappedIpv4(parseIpv6('[::ffff:ffff:ffff]') ?? [])).toBe(0xffffffff);
    // IPv4-compatible (deprecated, RFC 4291 2.5.5.1) and IPv4-translated forms are not mapped.
    expect(mappedIpv4(parseIpv6('[::7f00:1]') ?? [])).toBeNull();
    expect(mappedIpv4(parseIpv6('[::ffff:0:7f00:1]') ?? [])).toBeNull();
    expect(mappedIpv4(parseIpv6('[1::ffff:7f00:1]') ?? [])).toBeNull();
  });
});
