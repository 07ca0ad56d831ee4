import { describe, expect, it } from 'vitest';
import {
  clientIp,
  compileCidrs,
  compileTrustProxy,
  formatAddress,
  formatIpv6,
  isTrusted,
  parseAddress,
  rateLimitKey,
} from './client-ip.js';

const text = (value: string) => {
  const address = parseAddress(value);
  return address === null ? null : formatAddress(address);
};

describe('parseAddress / formatAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:5678', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['::1', '::1'],
    ['::', '::'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0002:0001', '2001:db8::2:1'],
  ])('reads %s as %s', (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    '',
    'unknown',
    '203.0.113',
    '203.0.113.256',
    '010.0.0.1',
    '1:2:3:4:5:6:7:8:9',
    'a::b::c',
    '::ffff:1.2.3.999',
    '_hidden',
  ])('refuses %j', (input) => {
    expect(parseAddress(input)).toBeNull();
  });

  it('compresses the longest zero run, the first on a tie (RFC 5952 4.2.3)', () => {
    expect(formatIpv6([1, 0, 0, 2, 0, 0, 3, 4])).toBe('1::2:0:0:3:4');
    expect(formatIpv6([1, 0, 2, 3, 4, 5, 6, 7])).toBe('1:0:2:3:4:5:6:7');
    expect(formatIpv6([1, 2, 3, 4, 5, 6, 7, 8])).toBe('1:2:3:4:5:6:7:8');
  });
});

describe('rateLimitKey (docs/protocol.md#rate-limit)', () => {
  it('keeps IPv4 as is', () => {
    expect(rateLimitKey('203.0.113.7')).toBe('203.0.113.7');
  });
  it('counts IPv6 per /64', () => {
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(rateLimitKey('::1')).toBe('::/64');
    expect(rateLimitKey('2001:0:0:1::5')).toBe('2001:0:0:1::/64');
  });
  it('counts an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(rateLimitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });
  it('keeps a value that is no address as its own bucket', () => {
    expect(rateLimitKey('unix-socket')).toBe('unix-socket');
  });
});

describe('compileCidrs', () => {
  it('reads CIDRs, single addresses and proxy-addr names', () => {
    const ranges = compileCidrs(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7', 'loopback']);
    expect(ranges).toHaveLength(5);
    const trusted = (ip: string) => {
      const address = parseAddress(ip);
      if (address === null) throw new Error(ip);
      return isTrusted(address, ranges);
    };
    expect(trusted('10.1.2.3')).toBe(true);
    expect(trusted('11.1.2.3')).toBe(false);
    expect(trusted('2001:db8:ffff::1')).toBe(true);
    expect(trusted('2001:db9::1')).toBe(false);
    expect(trusted('192.0.2.7')).toBe(true);
    expect(trusted('192.0.2.8')).toBe(false);
    expect(trusted('127.0.0.1')).toBe(true);
    expect(trusted('::1')).toBe(true);
    // An IPv4-mapped address matches IPv4 ranges.
    expect(trusted('::ffff:10.9.9.9')).toBe(true);
  });

  it.each([
    ['10.0.0.0/33', 'trustProxy: "10.0.0.0/33" is not a CIDR (expected a prefix length from 0 to 32)'],
    ['2001:db8::/129', 'trustProxy: "2001:db8::/129" is not a CIDR (expected a prefix length from 0 to 128)'],
    ['10.0.0.0/x', 'trustProxy: "10.0.0.0/x" is not a CIDR (expected a prefix length from 0 to 32)'],
    ['example.com', 'trustProxy: "example.com" is not a CIDR (expected an IPv4 or IPv6 address)'],
    ['', 'trustProxy: "" is not a CIDR (expected an IPv4 or IPv6 address)'],
  ])('refuses %j with an exact message', (entry, message) => {
    expect(() => compileCidrs([entry])).toThrow(message);
  });

  it('checks the hop count', () => {
    expect(compileTrustProxy({ hops: 2 })).toEqual({ hops: 2 });
    expect(compileTrustProxy(undefined)).toBeUndefined();
    expect(compileTrustProxy({ hops: 32 })).toEqual({ hops: 32 });
    expect(() => compileTrustProxy({ hops: -1 })).toThrow('trustProxy: hops must be an integer from 0 to 32, got -1');
    expect(() => compileTrustProxy({ hops: 1.5 })).toThrow('trustProxy: hops must be an integer from 0 to 32, got 1.5');
    // The same bound as TRUST_PROXY (docs/protocol.md#client-address), not a looser one.
    expect(() => compileTrustProxy({ hops: 33 })).toThrow('trustProxy: hops must be an integer from 0 to 32, got 33');
  });
});

describe('clientIp (docs/protocol.md#client-address)', () => {
  const xff = '198.51.100.1, 198.51.100.2, 10.0.0.5';

  it('is the socket address without trustProxy, whatever X-Forwarded-For says', () => {
    expect(clientIp('203.0.113.7', xff, undefined)).toBe('203.0.113.7');
    expect(clientIp('::ffff:203.0.113.7', xff, undefined)).toBe('203.0.113.7');
  });

  it('is the socket address when there is no header', () => {
    expect(clientIp('10.0.0.9', undefined, { hops: 1 })).toBe('10.0.0.9');
  });

  it('takes the Nth address from the right with a hop count', () => {
    expect(clientIp('10.0.0.9', xff, { hops: 0 })).toBe('10.0.0.9');
    expect(clientIp('10.0.0.9', xff, { hops: 1 })).toBe('10.0.0.5');
    expect(clientIp('10.0.0.9', xff, { hops: 2 })).toBe('198.51.100.2');
    expect(clientIp('10.0.0.9', xff, { hops: 3 })).toBe('198.51.100.1');
  });

  it('takes the leftmost entry when there are fewer than N', () => {
    expect(clientIp('10.0.0.9', xff, { hops: 5 })).toBe('198.51.100.1');
    expect(clientIp('10.0.0.9', '198.51.100.1', { hops: 3 })).toBe('198.51.100.1');
  });

  it('walks CIDRs from the right and takes the first untrusted address', () => {
    const trust = { ranges: compileCidrs(['10.0.0.0/8']) };
    expect(clientIp('10.0.0.9', xff, trust)).toBe('198.51.100.2');
    expect(clientIp('10.0.0.9', '198.51.100.1, 10.0.0.4, 10.0.0.5', trust)).toBe('198.51.100.1');
  });

  it('ignores X-Forwarded-For when the socket itself is not a trusted proxy', () => {
    const trust = { ranges: compileCidrs(['10.0.0.0/8']) };
    expect(clientIp('203.0.113.7', xff, trust)).toBe('203.0.113.7');
  });

  it('takes the leftmost entry when every entry is trusted', () => {
    const trust = { ranges: compileCidrs(['10.0.0.0/8']) };
    expect(clientIp('10.0.0.9', '10.0.0.1, 10.0.0.2', trust)).toBe('10.0.0.1');
  });

  it('stops at an entry that is not an address and keeps the last one accepted', () => {
    expect(clientIp('10.0.0.9', 'forged, 10.0.0.5', { hops: 2 })).toBe('10.0.0.5');
    expect(clientIp('10.0.0.9', 'forged', { hops: 1 })).toBe('10.0.0.9');
    const trust = { ranges: compileCidrs(['10.0.0.0/8']) };
    expect(clientIp('10.0.0.9', 'forged, 10.0.0.5', trust)).toBe('10.0.0.5');
  });

  it('reads IPv6 and ported entries', () => {
    expect(clientIp('::1', '[2001:db8::7]:4711', { hops: 1 })).toBe('2001:db8::7');
    expect(clientIp('::1', '2001:DB8::7', { ranges: compileCidrs(['loopback']) })).toBe('2001:db8::7');
  });

  it('skips empty entries', () => {
    expect(clientIp('10.0.0.9', '198.51.100.1,, ,10.0.0.5', { hops: 2 })).toBe('198.51.100.1');
  });
});
