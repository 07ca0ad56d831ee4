import { describe, expect, it } from 'vitest';
import { trustProxyNotice } from './trust-proxy-notice.js';

describe('trustProxyNotice (docs/protocol.md#client-address)', () => {
  it('says nothing without TRUST_PROXY', () => {
    expect(trustProxyNotice(undefined, '0.0.0.0')).toEqual({});
  });

  it('with a hop count, says the server must be reachable only through the proxies', () => {
    expect(trustProxyNotice({ hops: 2 }, '127.0.0.1')).toEqual({
      info: 'client address (TRUST_PROXY=2, a hop count): the server must be reachable only through its proxies (2 in front of it), or a client writes its own X-Forwarded-For (docs/protocol.md#client-address)',
    });
  });

  it.each(['127.0.0.1', '127.0.0.53', '::1', 'localhost'])('no warning on loopback HOST=%s', (host) => {
    expect(trustProxyNotice({ hops: 1 }, host).warning).toBeUndefined();
  });

  it.each(['0.0.0.0', '::', '192.0.2.10', 'licence.internal'])(
    'warns with a hop count on HOST=%s, naming both variables and suggesting a CIDR list',
    (host) => {
      expect(trustProxyNotice({ hops: 1 }, host).warning).toBe(
        `warning: TRUST_PROXY=1 is a hop count and HOST=${host} is not a loopback address: a client that reaches the server directly chooses its own address and escapes the rate limit and the admin lockout; give TRUST_PROXY your proxies' addresses instead (a CIDR list, e.g. TRUST_PROXY=10.0.0.0/8), or listen on loopback behind them`,
      );
    },
  );

  it('with a CIDR list, names the proxies and never warns, whatever HOST', () => {
    expect(trustProxyNotice({ cidrs: ['10.0.0.0/8', '::1'] }, '0.0.0.0')).toEqual({
      info: 'client address (TRUST_PROXY): X-Forwarded-For is read only from 10.0.0.0/8, ::1; any other peer is a client, capped per address (docs/protocol.md#client-address)',
    });
  });
});
