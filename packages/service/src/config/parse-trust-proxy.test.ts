import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './parse-trust-proxy.js';
import { configErrorLine } from './parsed.js';

describe('parseTrustProxy (docs/protocol.md#client-address)', () => {
  it.each([undefined, '', '  ', 'false', '0'])('%j trusts no proxy', (raw) => {
    expect(parseTrustProxy(raw)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['1', 1],
    ['2', 2],
    ['32', 32],
  ])('hop count %s', (raw, hops) => {
    expect(parseTrustProxy(raw)).toEqual({ ok: true, value: { hops } });
  });

  it('refuses a hop count beyond 32', () => {
    expect(parseTrustProxy('33')).toEqual({
      ok: false,
      errors: [{ variable: 'TRUST_PROXY', message: 'hop count must be 0..32, got 33' }],
    });
  });

  it('refuses true: the leftmost entry is never trusted merely for being first', () => {
    const result = parseTrustProxy('true');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map(configErrorLine)).toEqual([
      expect.stringMatching(/^TRUST_PROXY: "true" would believe any client's X-Forwarded-For/),
    ]);
  });

  it('reads a CIDR list, trimming spaces and dropping repeats', () => {
    expect(parseTrustProxy(' 10.0.0.0/8 , 2001:db8::/32,192.0.2.7, 10.0.0.0/8')).toEqual({
      ok: true,
      value: { cidrs: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'] },
    });
  });

  it("takes proxy-addr's names", () => {
    expect(parseTrustProxy('loopback,uniquelocal')).toEqual({
      ok: true,
      value: { cidrs: ['loopback', 'uniquelocal'] },
    });
  });

  it.each(['10.0.0.0/33', '::1/129', 'proxy.internal', '10.0.0.0/8,,::1', '10.0.0.256', '1.2.3.4/-1', '-1'])(
    'refuses %j naming TRUST_PROXY',
    (raw) => {
      const result = parseTrustProxy(raw);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.errors.map((error) => error.variable)).toEqual(['TRUST_PROXY']);
    },
  );
});
