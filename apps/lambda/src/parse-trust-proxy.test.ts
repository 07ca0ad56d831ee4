import { describe, expect, it } from 'vitest';
import { MAX_TRUST_PROXY_HOPS, parseTrustProxy } from './parse-trust-proxy.js';

// lambda-config.test.ts also checks every form against the Koa server's own reading.
describe('parseTrustProxy (DESIGN 5)', () => {
  it('unset, empty, false and 0 trust nothing', () => {
    for (const raw of [undefined, '', ' ', 'false', '0']) expect(parseTrustProxy(raw)).toEqual({ ok: true, value: undefined });
  });

  it('a hop count up to the bound, or a list of CIDRs and names without duplicates', () => {
    expect(parseTrustProxy('2')).toEqual({ ok: true, value: { hops: 2 } });
    expect(parseTrustProxy(String(MAX_TRUST_PROXY_HOPS + 1))).toEqual({ ok: false, error: 'TRUST_PROXY: hop count must be 0..32, got 33' });
    expect(parseTrustProxy('10.0.0.0/8, loopback, 10.0.0.0/8')).toEqual({ ok: true, value: { cidrs: ['10.0.0.0/8', 'loopback'] } });
  });

  it('refuses true, empty entries and what is no address, naming TRUST_PROXY', () => {
    expect(parseTrustProxy('true')).toMatchObject({ ok: false, error: expect.stringMatching(/^TRUST_PROXY: "true" would believe/) });
    expect(parseTrustProxy('10.0.0.0/8,,::1')).toEqual({ ok: false, error: 'TRUST_PROXY: empty entry in the CIDR list' });
    expect(parseTrustProxy('10.0.0.0/33')).toMatchObject({ ok: false, error: expect.stringContaining('"10.0.0.0/33" is neither') });
  });
});
