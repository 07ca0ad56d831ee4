import { configErrorLine, readServiceConfig } from '@licence/service';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_BYTES, newAdminToken } from './admin-token.js';

describe('newAdminToken (`licence token`, docs/protocol.md#administration)', () => {
  it('encodes 32 random bytes as base64url without padding: 43 characters', () => {
    const bytes = Uint8Array.from({ length: ADMIN_TOKEN_BYTES }, (_, index) => index * 8);
    const token = newAdminToken((length) => bytes.slice(0, length));
    expect(token).toBe(Buffer.from(bytes).toString('base64url'));
    expect(token).toHaveLength(43);
    expect(Buffer.from(token, 'base64url')).toEqual(Buffer.from(bytes));
  });

  it('makes tokens the rule of LICENCE_ADMIN_TOKEN accepts, each different (5,000 of them)', () => {
    const tokens = Array.from({ length: 5_000 }, () => newAdminToken());
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // LICENCE_ADMIN_TOKEN as the server reads it (the rule createService holds `adminToken` to).
      const read = readServiceConfig({ LICENCE_ADMIN_TOKEN: token }, '/', { only: ['adminToken'] });
      expect(read.ok ? null : read.errors.map(configErrorLine)).toBeNull();
      expect(read.ok ? { ok: true, value: read.value.adminToken } : read).toEqual({ ok: true, value: token });
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
