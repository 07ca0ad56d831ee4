import { describe, expect, it } from 'vitest';
import { clientAddressRules } from './client-address.js';

describe('clientAddressRules(...).connectionKey (docs/protocol.md#limits)', () => {
  it("without TRUST_PROXY, a connection counts under its peer's rate-limit key", () => {
    const { connectionKey } = clientAddressRules(undefined);
    expect(connectionKey('192.0.2.7')).toBe('192.0.2.7');
    // docs/protocol.md#rate-limit: an IPv4-mapped address as its IPv4, other IPv6 by its /64.
    expect(connectionKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(connectionKey('2001:db8:1:2:3:4:5:6')).toBe(connectionKey('2001:db8:1:2:ffff::1'));
    expect(connectionKey('2001:db8:1:2::1')).not.toBe(connectionKey('2001:db8:1:3::1'));
  });

  it('with a CIDR list, a peer inside it is a proxy and counts under no key; any other keeps its own', () => {
    const { connectionKey } = clientAddressRules({ cidrs: ['127.0.0.1/32', '10.0.0.0/8'] });
    expect(connectionKey('127.0.0.1')).toBeUndefined();
    expect(connectionKey('::ffff:10.9.8.7')).toBeUndefined();
    expect(connectionKey('127.0.0.2')).toBe('127.0.0.2');
  });

  it('with a hop count, every peer keeps its key (the server caps no address then, connection-limits.ts)', () => {
    expect(clientAddressRules({ hops: 1 }).connectionKey('127.0.0.6')).toBe('127.0.0.6');
  });
});

// The start's notice: what trustProxyNotice of the Koa server said, word for word.
describe('clientAddressRules(...).notice (docs/protocol.md#client-address)', () => {
  const notice = (trustProxy: Parameters<typeof clientAddressRules>[0], host: string) =>
    clientAddressRules(trustProxy).notice(host);

  it('says nothing without TRUST_PROXY', () => {
    expect(notice(undefined, '0.0.0.0')).toEqual({});
  });

  it('with a hop count, says the server must be reachable only through the proxies', () => {
    expect(notice({ hops: 2 }, '127.0.0.1')).toEqual({
      info: 'client address (TRUST_PROXY=2, a hop count): the server must be reachable only through its proxies (2 in front of it), or a client writes its own X-Forwarded-For (docs/protocol.md#client-address)',
    });
  });

  it.each(['127.0.0.1', '127.0.0.53', '::1', 'localhost'])('no warning on loopback HOST=%s', (host) => {
    expect(notice({ hops: 1 }, host).warning).toBeUndefined();
  });

  it.each(['0.0.0.0', '::', '192.0.2.10', 'licence.internal'])(
    'warns with a hop count on HOST=%s, naming both variables and suggesting a CIDR list',
    (host) => {
      expect(notice({ hops: 1 }, host).warning).toBe(
        `warning: TRUST_PROXY=1 is a hop count and HOST=${host} is not a loopback address: a client that reaches the server directly chooses its own address and escapes the rate limit and the admin lockout; give TRUST_PROXY your proxies' addresses instead (a CIDR list, e.g. TRUST_PROXY=10.0.0.0/8), or listen on loopback behind them`,
      );
    },
  );

  it('with a CIDR list, names the proxies and never warns, whatever HOST', () => {
    expect(notice({ cidrs: ['10.0.0.0/8', '::1'] }, '0.0.0.0')).toEqual({
      info: 'client address (TRUST_PROXY): X-Forwarded-For is read only from 10.0.0.0/8, ::1; any other peer is a client, capped per address (docs/protocol.md#client-address)',
    });
  });
});
