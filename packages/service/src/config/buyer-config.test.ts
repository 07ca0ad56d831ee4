import { describe, expect, it } from 'vitest';
import {
  checkedBuyerTransfers,
  checkedPublicUrl,
  parseBuyerTransfers,
  parsePublicUrl,
  publicUrlFault,
} from './buyer-config.js';

describe('LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links)', () => {
  it('takes an absolute http(s) URL, with a path prefix, as links start with it', () => {
    expect(parsePublicUrl(undefined)).toEqual({ ok: true, value: undefined });
    expect(parsePublicUrl('https://Licences.Example.com')).toEqual({ ok: true, value: 'https://licences.example.com' });
    expect(parsePublicUrl('https://licences.example.com/')).toEqual({
      ok: true,
      value: 'https://licences.example.com',
    });
    expect(parsePublicUrl('http://127.0.0.1:8080/prod//')).toEqual({ ok: true, value: 'http://127.0.0.1:8080/prod' });
    expect(parsePublicUrl('https://example.com:443/a/b')).toEqual({ ok: true, value: 'https://example.com/a/b' });
  });

  it('refuses anything else with one line naming the variable, never a password', () => {
    const fault = (raw: string) => {
      const result = parsePublicUrl(raw);
      return result.ok ? null : result.errors.map((error) => `${error.variable}: ${error.message}`).join('; ');
    };
    expect(fault('licences.example.com')).toBe(
      'LICENCE_PUBLIC_URL: expected an absolute http:// or https:// URL, got "licences.example.com"',
    );
    expect(fault('ftp://example.com')).toBe(
      'LICENCE_PUBLIC_URL: expected an http:// or https:// URL, got "ftp://example.com"',
    );
    expect(fault('https://example.com/?a=1')).toBe(
      'LICENCE_PUBLIC_URL: must not hold a query (?) or a fragment (#), got "https://example.com/?a=1"',
    );
    expect(fault('https://example.com/#')).toContain('must not hold a query (?) or a fragment (#)');
    expect(fault('https://user:s3cret@example.com')).toBe(
      'LICENCE_PUBLIC_URL: must not hold a user name or password, got (value not shown)',
    );
    expect(fault('htp://user:s3cret@example.com')).not.toContain('s3cret');
    expect(publicUrlFault('https://example.com/prod')).toBeNull();
  });

  it('checks createService publicUrl alike', () => {
    expect(checkedPublicUrl(undefined)).toBeNull();
    expect(checkedPublicUrl('https://example.com/prod/')).toBe('https://example.com/prod');
    expect(() => checkedPublicUrl(42)).toThrow('publicUrl: expected a string');
    expect(() => checkedPublicUrl('example.com')).toThrow('publicUrl: expected an absolute http:// or https:// URL');
  });
});

describe('LICENCE_BUYER_TRANSFERS_PER_30_DAYS (docs/protocol.md#buyer-links)', () => {
  it('takes an integer from 0 to 100', () => {
    expect(parseBuyerTransfers(undefined)).toEqual({ ok: true, value: undefined });
    for (const raw of ['0', '3', '100']) expect(parseBuyerTransfers(raw)).toEqual({ ok: true, value: Number(raw) });
    for (const raw of ['101', '-1', '1.5', ' 3', '3x', '0x10', '1e2']) {
      expect(parseBuyerTransfers(raw)).toEqual({
        ok: false,
        errors: [
          {
            variable: 'LICENCE_BUYER_TRANSFERS_PER_30_DAYS',
            message: `expected an integer from 0 to 100, got "${raw}"`,
          },
        ],
      });
    }
  });

  it('checks createService buyerTransfersPer30Days alike, 3 by default', () => {
    expect(checkedBuyerTransfers(undefined)).toBe(3);
    expect(checkedBuyerTransfers(0)).toBe(0);
    for (const bad of [101, -1, 2.5, '3', Number.NaN]) {
      expect(() => checkedBuyerTransfers(bad)).toThrow('buyerTransfersPer30Days: expected an integer from 0 to 100');
    }
  });
});
