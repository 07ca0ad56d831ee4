import { describe, expect, it } from 'vitest';
import { decodeSeed, isPostgresUrl, parseLogLevel } from './config-values.js';

describe('config values (docs/protocol.md#configuration)', () => {
  it('reads LOG_LEVEL with info as the default, and names the variable when wrong', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel('  ')).toBe('info');
    expect(parseLogLevel(' DEBUG ')).toBe('debug');
    expect(parseLogLevel('loud')).toEqual({
      error: 'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    });
  });

  it('decodes a 32-byte seed, and explains a wrong one without showing it', () => {
    const seed = decodeSeed(Buffer.alloc(32, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(seed).toBeInstanceOf(Uint8Array);
    const short = decodeSeed(Buffer.alloc(16, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(typeof short).toBe('string');
    expect(short).toMatch(/^LICENCE_SIGNING_KEY: .*32.*licence keygen/);
    expect(short).not.toContain(Buffer.alloc(16, 7).toString('base64'));
  });

  it('accepts only postgres: and postgresql: URLs', () => {
    expect(isPostgresUrl('postgres://u:p@db:5432/licence')).toBe(true);
    expect(isPostgresUrl('postgresql:///licence')).toBe(true);
    expect(isPostgresUrl('mysql://db/licence')).toBe(false);
    expect(isPostgresUrl('not a url')).toBe(false);
  });
});
