import { describe, expect, it } from 'vitest';
import { compileTrustProxy } from './client-ip.js';
import { isTrustedPeer } from './trusted-peer.js';

describe('isTrustedPeer (docs/protocol.md#client-address)', () => {
  it('trusts no peer without TRUST_PROXY', () => {
    expect(isTrustedPeer('127.0.0.1', undefined)).toBe(false);
  });

  it('takes every peer for a proxy with a hop count, none with 0', () => {
    expect(isTrustedPeer('203.0.113.9', compileTrustProxy({ hops: 1 }))).toBe(true);
    expect(isTrustedPeer('203.0.113.9', compileTrustProxy({ hops: 0 }))).toBe(false);
  });

  it('trusts only the peers inside a CIDR list, an IPv4-mapped address as its IPv4', () => {
    const trust = compileTrustProxy({ cidrs: ['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8'] });
    expect(isTrustedPeer('127.0.0.1', trust)).toBe(true);
    expect(isTrustedPeer('::ffff:127.0.0.1', trust)).toBe(true);
    expect(isTrustedPeer('10.200.3.4', trust)).toBe(true);
    expect(isTrustedPeer('fd12::1', trust)).toBe(true);
    expect(isTrustedPeer('127.0.0.2', trust)).toBe(false);
    expect(isTrustedPeer('::1', trust)).toBe(false);
    expect(isTrustedPeer('not an address', trust)).toBe(false);
  });
});
