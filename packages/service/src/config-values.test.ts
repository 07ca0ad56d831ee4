import { describe, expect, it } from 'vitest';
import {
  decodeSeed,
  isPostgresUrl,
  logLevelOrInfo,
  parseAdminToken,
  parseDatabaseUrl,
  parseLogLevel,
} from './config-values.js';
import { configErrorLine } from './parsed.js';

describe('config values (docs/protocol.md#configuration)', () => {
  it('reads LOG_LEVEL with info as the default, and names the variable when wrong', () => {
    expect(parseLogLevel(undefined)).toEqual({ ok: true, value: 'info' });
    expect(parseLogLevel('  ')).toEqual({ ok: true, value: 'info' });
    expect(parseLogLevel(' DEBUG ')).toEqual({ ok: true, value: 'debug' });
    expect(parseLogLevel('loud')).toEqual({
      ok: false,
      errors: [
        {
          variable: 'LOG_LEVEL',
          message: 'expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
        },
      ],
    });
    expect([logLevelOrInfo(' WARN'), logLevelOrInfo('loud'), logLevelOrInfo(undefined)]).toEqual([
      'warn',
      'info',
      'info',
    ]);
  });

  it('decodes a 32-byte seed, and explains a wrong one without showing it', () => {
    const seed = decodeSeed(Buffer.alloc(32, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(seed.ok && seed.value).toBeInstanceOf(Uint8Array);
    const short = decodeSeed(Buffer.alloc(16, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(short.ok).toBe(false);
    const lines = short.ok ? [] : short.errors.map(configErrorLine);
    expect(lines).toEqual([expect.stringMatching(/^LICENCE_SIGNING_KEY: .*32.*licence keygen/)]);
    expect(lines.join('\n')).not.toContain(Buffer.alloc(16, 7).toString('base64'));
  });

  it('accepts only postgres: and postgresql: URLs', () => {
    expect(isPostgresUrl('postgres://u:p@db:5432/licence')).toBe(true);
    expect(isPostgresUrl('postgresql:///licence')).toBe(true);
    expect(isPostgresUrl('mysql://db/licence')).toBe(false);
    expect(isPostgresUrl('not a url')).toBe(false);
  });

  it('reads DATABASE_URL and LICENCE_ADMIN_TOKEN, never showing either value', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseDatabaseUrl('postgres://db/licence')).toEqual({ ok: true, value: 'postgres://db/licence' });
    expect(parseDatabaseUrl('mysql://u:hunter2@db/x')).toEqual({
      ok: false,
      errors: [{ variable: 'DATABASE_URL', message: 'expected a postgres:// or postgresql:// URL (value not shown)' }],
    });
    expect(parseAdminToken(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseAdminToken('x'.repeat(16))).toEqual({ ok: true, value: 'x'.repeat(16) });
    expect(parseAdminToken('short-secret')).toEqual({
      ok: false,
      errors: [
        { variable: 'LICENCE_ADMIN_TOKEN', message: 'must be at least 16 characters, got 12 (value not shown)' },
      ],
    });
  });
});
