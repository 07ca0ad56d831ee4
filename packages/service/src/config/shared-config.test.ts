import { describe, expect, it } from 'vitest';
import { configErrorLine } from './parsed.js';
import { absolutePath, type Environment, parseSigningKey, readVariable, variableReaders } from './shared-config.js';

// 32 bytes of 0x01, base64: a valid seed for these tests only.
const SEED = Buffer.alloc(32, 1).toString('base64');

/** The variables every adapter shares, each read on its own by its reader (variableReaders). */
function readSharedConfig(env: Environment, cwd: string) {
  const read = variableReaders(env, cwd);
  return {
    databaseUrl: read.databaseUrl(),
    signingKey: read.signingKey(),
    adminToken: read.adminToken(),
    trustProxy: read.trustProxy(),
    logLevel: read.logLevel(),
  };
}

describe('readSharedConfig (docs/protocol.md#configuration)', () => {
  it('an empty or blank variable counts as unset; values are trimmed', () => {
    expect(readVariable({ A: '', B: '  ', C: ' x ' }, 'A')).toBeUndefined();
    expect(readVariable({ A: '', B: '  ', C: ' x ' }, 'B')).toBeUndefined();
    expect(readVariable({ A: '', B: '  ', C: ' x ' }, 'C')).toBe('x');
    expect(readVariable({}, 'D')).toBeUndefined();
  });

  it('reads every shared variable on its own', () => {
    expect(readSharedConfig({}, '/srv')).toEqual({
      databaseUrl: { ok: true, value: undefined },
      signingKey: { ok: true, value: undefined },
      adminToken: { ok: true, value: undefined },
      trustProxy: { ok: true, value: undefined },
      logLevel: { ok: true, value: 'info' },
    });
    const readings = readSharedConfig(
      { DATABASE_URL: 'postgres://db/x', LICENCE_ADMIN_TOKEN: 'short', TRUST_PROXY: '2', LOG_LEVEL: 'loud' },
      '/srv',
    );
    expect(readings.databaseUrl).toEqual({ ok: true, value: 'postgres://db/x' });
    expect(readings.trustProxy).toEqual({ ok: true, value: { hops: 2 } });
    expect([readings.adminToken, readings.logLevel].flatMap((reading) => (reading.ok ? [] : reading.errors))).toEqual([
      expect.objectContaining({ variable: 'LICENCE_ADMIN_TOKEN' }),
      expect.objectContaining({ variable: 'LOG_LEVEL' }),
    ]);
  });

  it('a signing key: inline, a file resolved against the working directory, not both', () => {
    const inline = parseSigningKey({ LICENCE_SIGNING_KEY: SEED }, '/srv');
    expect(inline.ok && inline.value?.kind).toBe('inline');
    expect(parseSigningKey({ LICENCE_SIGNING_KEY_FILE: 'keys/k' }, '/srv')).toEqual({
      ok: true,
      value: { kind: 'file', path: '/srv/keys/k' },
    });
    const faults = [
      parseSigningKey({ LICENCE_SIGNING_KEY: SEED, LICENCE_SIGNING_KEY_FILE: '/k' }, '/srv'),
      parseSigningKey({ LICENCE_SIGNING_KEY_FILE: 'a\0b' }, '/srv'),
      parseSigningKey({ LICENCE_SIGNING_KEY: 'AAAA' }, '/srv'),
    ].flatMap((reading) => (reading.ok ? [] : reading.errors.map(configErrorLine)));
    expect(faults).toEqual([
      'LICENCE_SIGNING_KEY: set either LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both',
      'LICENCE_SIGNING_KEY_FILE: holds a NUL character',
      expect.stringMatching(/^LICENCE_SIGNING_KEY: expected 32 bytes, got 3 \(a base64 32-byte Ed25519 seed/),
    ]);
  });

  it('absolutePath keeps an absolute path as given', () => {
    expect(absolutePath('/a//b', '/srv')).toBe('/a//b');
    expect(absolutePath('a/../b', '/srv')).toBe('/srv/b');
  });
});
