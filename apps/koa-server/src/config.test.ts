import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configErrorLine, loadSeedFile } from '@licence/service';
import { loadConfig } from './config.js';
import type { ConfigResult, ServerConfig } from './config.js';

const CWD = '/srv/licence';
// 32 bytes of 0x01, base64: a valid seed for these tests only.
const SEED = Buffer.alloc(32, 1).toString('base64');

function ok(result: ConfigResult): ServerConfig {
  if (!result.ok) throw new Error(`expected a config, got: ${result.errors.map(configErrorLine).join(' | ')}`);
  return result.value;
}

function errors(result: ConfigResult): readonly string[] {
  if (result.ok) throw new Error('expected errors, got a config');
  return result.errors.map(configErrorLine);
}

describe('loadConfig defaults (docs/protocol.md#configuration)', () => {
  it('serves on 127.0.0.1:8080 with ./data, SQLite, the embedded key, no admin API, no proxy, info logs', () => {
    const config = ok(loadConfig({}, CWD));
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 8080,
      dataDir: '/srv/licence/data',
      database: { kind: 'sqlite', file: '/srv/licence/data/licence.db' },
      signingKey: { kind: 'embedded', path: '/srv/licence/data/signing-key' },
      adminToken: undefined,
      trustProxy: undefined,
      // TRUST_PROXY compiled for the connection caps and the start's notice (@licence/service).
      clientAddress: { connectionKey: expect.any(Function), notice: expect.any(Function) },
      logLevel: 'info',
      logLevelSet: false,
      maxConnections: undefined,
      maxConnectionsPerIp: 100,
      webhookAllowPrivate: false,
      webhooksPerAuthor: 10,
      webhookConcurrency: 32,
      stagingHosts: [],
      publicUrl: undefined,
      buyerTransfersPer30Days: undefined,
      workers: 1,
    });
  });

  it('treats an empty or blank variable as unset', () => {
    const config = ok(
      loadConfig({ HOST: '', PORT: ' ', LICENCE_ADMIN_TOKEN: '', TRUST_PROXY: '', LOG_LEVEL: '' }, CWD),
    );
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.adminToken).toBeUndefined();
  });
});

describe('HOST', () => {
  it.each(['0.0.0.0', '::', '::1', 'localhost', 'licence.internal'])('accepts %s', (host) => {
    expect(ok(loadConfig({ HOST: host }, CWD)).host).toBe(host);
  });
  it.each(['exemple fr', 'http://x', 'a/b'])('refuses %j with one line naming HOST', (host) => {
    const lines = errors(loadConfig({ HOST: host }, CWD));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^HOST: /);
  });
});

describe('PORT', () => {
  it.each([
    ['0', 0],
    ['80', 80],
    ['65535', 65535],
    ['08080', 8080],
  ])('accepts %s', (raw, port) => {
    expect(ok(loadConfig({ PORT: raw }, CWD)).port).toBe(port);
  });
  it.each(['65536', '-1', '80.5', 'http', '1e3', '123456'])('refuses %s', (raw) => {
    expect(errors(loadConfig({ PORT: raw }, CWD))).toEqual([`PORT: expected an integer 0..65535, got "${raw}"`]);
  });
});

describe('LICENCE_DATA_DIR', () => {
  it('resolves a relative folder against the working directory and keeps an absolute one', () => {
    expect(ok(loadConfig({ LICENCE_DATA_DIR: 'var/lib' }, CWD)).dataDir).toBe('/srv/licence/var/lib');
    const config = ok(loadConfig({ LICENCE_DATA_DIR: '/var/lib/licence' }, CWD));
    expect(config.dataDir).toBe('/var/lib/licence');
    expect(config.database).toEqual({ kind: 'sqlite', file: '/var/lib/licence/licence.db' });
    expect(config.signingKey).toEqual({ kind: 'embedded', path: '/var/lib/licence/signing-key' });
  });
  it('refuses a NUL character', () => {
    expect(errors(loadConfig({ LICENCE_DATA_DIR: 'a\0b' }, CWD))).toEqual(['LICENCE_DATA_DIR: holds a NUL character']);
  });
});

describe('DATABASE_URL', () => {
  it.each(['postgres://u:p@db:5432/licence', 'postgresql://db/licence', 'postgres:///licence'])('accepts %s', (url) => {
    expect(ok(loadConfig({ DATABASE_URL: url }, CWD)).database).toEqual({ kind: 'postgres', url });
  });
  it.each(['mysql://u:hunter2secret@db/x', 'db:5432', 'sqlite:///x.db'])('refuses %s without printing it', (url) => {
    const lines = errors(loadConfig({ DATABASE_URL: url }, CWD));
    expect(lines).toEqual(['DATABASE_URL: expected a postgres:// or postgresql:// URL (value not shown)']);
    expect(lines.join('\n')).not.toContain(url);
  });
});

describe('LICENCE_SIGNING_KEY and LICENCE_SIGNING_KEY_FILE', () => {
  it('decodes an inline seed', () => {
    const source = ok(loadConfig({ LICENCE_SIGNING_KEY: SEED }, CWD)).signingKey;
    expect(source.kind).toBe('inline');
    expect(source.kind === 'inline' && Buffer.from(source.seed).equals(Buffer.alloc(32, 1))).toBe(true);
  });
  it('resolves a key file path', () => {
    expect(ok(loadConfig({ LICENCE_SIGNING_KEY_FILE: 'secrets/key' }, CWD)).signingKey).toEqual({
      kind: 'file',
      path: '/srv/licence/secrets/key',
    });
  });
  it('refuses both at once', () => {
    expect(errors(loadConfig({ LICENCE_SIGNING_KEY: SEED, LICENCE_SIGNING_KEY_FILE: '/k' }, CWD))).toEqual([
      'LICENCE_SIGNING_KEY: set either LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both',
    ]);
  });
  it.each([
    ['a short seed', Buffer.alloc(16, 7).toString('base64'), 'expected 32 bytes, got 16'],
    ['not base64', 'this is not base64 at all!!', 'not canonical padded base64'],
    ['a 64-byte secret key', Buffer.alloc(64, 9).toString('base64'), 'expected 32 bytes, got 64'],
  ])('refuses %s in one line that never shows the value', (_name, value, reason) => {
    const lines = errors(loadConfig({ LICENCE_SIGNING_KEY: value }, CWD));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^LICENCE_SIGNING_KEY: /);
    expect(lines[0]).toContain(reason);
    expect(lines[0]).not.toContain(value);
  });
  it("a seed's fault names the source it is given (the embedded key's file, read as seed-file.ts reads it)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'licence-seed-'));
    try {
      writeFileSync(join(dir, 'signing-key'), 'AAAA');
      const seed = loadSeedFile(join(dir, 'signing-key'), 'signing key file');
      expect(seed.ok ? [] : seed.errors.map(configErrorLine)).toEqual([
        expect.stringMatching(/^signing key file: expected 32 bytes, got 3/),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('LICENCE_ADMIN_TOKEN', () => {
  it('accepts a token the rule of docs/protocol.md#administration takes', () => {
    const token = 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s';
    expect(ok(loadConfig({ LICENCE_ADMIN_TOKEN: token }, CWD)).adminToken).toBe(token);
  });
  it('refuses a shorter token without showing it', () => {
    const lines = errors(loadConfig({ LICENCE_ADMIN_TOKEN: 'short-secret' }, CWD));
    expect(lines).toEqual([
      'LICENCE_ADMIN_TOKEN: must be at least 32 characters, got 12 (value not shown; `pnpm licence token` makes one)',
    ]);
    expect(lines[0]).not.toContain('short-secret');
  });
  it('refuses a token with white space inside, which no Authorization header could carry', () => {
    const token = 'my admin token with spaces, long enough';
    const lines = errors(loadConfig({ LICENCE_ADMIN_TOKEN: token }, CWD));
    expect(lines).toEqual([
      'LICENCE_ADMIN_TOKEN: holds white space, which an Authorization: Bearer header cannot carry (value not shown; `pnpm licence token` makes one)',
    ]);
    expect(lines[0]).not.toContain(token);
  });
});

describe('TRUST_PROXY', () => {
  it('reads a hop count and a CIDR list', () => {
    expect(ok(loadConfig({ TRUST_PROXY: '2' }, CWD)).trustProxy).toEqual({ hops: 2 });
    expect(ok(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }, CWD)).trustProxy).toEqual({
      cidrs: ['10.0.0.0/8', '::1'],
    });
  });
  it('refuses true with a line that says why', () => {
    expect(errors(loadConfig({ TRUST_PROXY: 'true' }, CWD))[0]).toMatch(/^TRUST_PROXY: "true" would believe/);
  });
});

describe('LOG_LEVEL', () => {
  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', 'DEBUG'])('accepts %s', (level) => {
    const config = ok(loadConfig({ LOG_LEVEL: level }, CWD));
    expect(config.logLevel).toBe(level.toLowerCase());
    expect(config.logLevelSet).toBe(true);
  });
  it('refuses an unknown level', () => {
    expect(errors(loadConfig({ LOG_LEVEL: 'verbose' }, CWD))).toEqual([
      'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ]);
  });
});

describe('LICENCE_MAX_CONNECTIONS and LICENCE_MAX_CONNECTIONS_PER_IP', () => {
  it('reads positive integers; the total stays unset for the start to settle against the open-file limit', () => {
    const config = ok(loadConfig({ LICENCE_MAX_CONNECTIONS: '2000', LICENCE_MAX_CONNECTIONS_PER_IP: '20' }, CWD));
    expect([config.maxConnections, config.maxConnectionsPerIp]).toEqual([2000, 20]);
    expect(ok(loadConfig({ LICENCE_MAX_CONNECTIONS: ' 1 ' }, CWD)).maxConnections).toBe(1);
  });
  it.each(['0', '-5', '1.5', 'many', '1e4', '1234567890'])('refuses %j, naming the variable', (raw) => {
    expect(errors(loadConfig({ LICENCE_MAX_CONNECTIONS: raw, LICENCE_MAX_CONNECTIONS_PER_IP: raw }, CWD))).toEqual([
      `LICENCE_MAX_CONNECTIONS: expected a positive integer (at most 9 digits), got "${raw}"`,
      `LICENCE_MAX_CONNECTIONS_PER_IP: expected a positive integer (at most 9 digits), got "${raw}"`,
    ]);
  });
});

describe('LICENCE_WORKERS (README "Workers")', () => {
  it('reads 1 to 64, and auto as the number of cores it is handed', () => {
    expect(ok(loadConfig({ LICENCE_WORKERS: '1' }, CWD)).workers).toBe(1);
    expect(ok(loadConfig({ LICENCE_WORKERS: ' 2 ' }, CWD)).workers).toBe(2);
    expect(ok(loadConfig({ LICENCE_WORKERS: '64' }, CWD)).workers).toBe(64);
    expect(ok(loadConfig({ LICENCE_WORKERS: 'auto' }, CWD, 6)).workers).toBe(6);
    expect(ok(loadConfig({ LICENCE_WORKERS: '' }, CWD, 6)).workers).toBe(1);
  });
  it.each(['0', '65', '-1', '1.5', 'Auto', 'many', '007', '2e1'])(
    'refuses %j with one line naming the variable',
    (raw) => {
      expect(errors(loadConfig({ LICENCE_WORKERS: raw }, CWD))).toEqual([
        `LICENCE_WORKERS: expected a whole number from 1 to 64 or "auto", got "${raw}"`,
      ]);
    },
  );
});

describe('LICENCE_WEBHOOK_ALLOW_PRIVATE (docs/protocol.md#webhooks)', () => {
  it.each([
    ['1', true],
    [' 1 ', true],
    ['0', false],
    ['', false],
  ])('reads %j as %s', (raw, on) => {
    expect(ok(loadConfig({ LICENCE_WEBHOOK_ALLOW_PRIVATE: raw }, CWD)).webhookAllowPrivate).toBe(on);
  });
  it.each(['true', 'yes', 'on', '2', 'TRUE', '01'])('refuses %j in one line naming the variable', (raw) => {
    expect(errors(loadConfig({ LICENCE_WEBHOOK_ALLOW_PRIVATE: raw }, CWD))).toEqual([
      `LICENCE_WEBHOOK_ALLOW_PRIVATE: expected 1 (on) or 0 (off), got "${raw}"`,
    ]);
  });
});

describe('LICENCE_WEBHOOKS_PER_AUTHOR and LICENCE_WEBHOOK_CONCURRENCY (docs/protocol.md#configuration)', () => {
  it('reads them, and a bad one stops the start with one line naming its variable', () => {
    const config = ok(loadConfig({ LICENCE_WEBHOOKS_PER_AUTHOR: '3', LICENCE_WEBHOOK_CONCURRENCY: ' 64 ' }, CWD));
    expect([config.webhooksPerAuthor, config.webhookConcurrency]).toEqual([3, 64]);
    expect(errors(loadConfig({ LICENCE_WEBHOOKS_PER_AUTHOR: '5000', LICENCE_WEBHOOK_CONCURRENCY: '0' }, CWD))).toEqual([
      'LICENCE_WEBHOOKS_PER_AUTHOR: expected an integer from 0 to 1000, got "5000"',
      'LICENCE_WEBHOOK_CONCURRENCY: expected an integer from 1 to 1000, got "0"',
    ]);
  });
});

describe('LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts)', () => {
  it('reads a comma list of host patterns, normalised; empty is none', () => {
    expect(
      ok(loadConfig({ LICENCE_STAGING_HOSTS: '*.Recette.Exemple.fr., preview-*.exemple.net' }, CWD)).stagingHosts,
    ).toEqual(['*.recette.exemple.fr', 'preview-*.exemple.net']);
    expect(ok(loadConfig({ LICENCE_STAGING_HOSTS: ' ' }, CWD)).stagingHosts).toEqual([]);
  });
  it('refuses a bad pattern in one line naming the variable', () => {
    const lines = errors(loadConfig({ LICENCE_STAGING_HOSTS: '*.recette.fr, exemple.*' }, CWD));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^LICENCE_STAGING_HOSTS: ./);
    expect(lines[0]).not.toContain('\n');
  });
});

describe('LICENCE_PUBLIC_URL and LICENCE_BUYER_TRANSFERS_PER_30_DAYS (docs/protocol.md#buyer-links)', () => {
  it('reads the public URL without its trailing slash, and the transfers as a number', () => {
    const config = ok(
      loadConfig(
        { LICENCE_PUBLIC_URL: 'https://Licences.Exemple.fr/prod/', LICENCE_BUYER_TRANSFERS_PER_30_DAYS: '0' },
        CWD,
      ),
    );
    expect(config.publicUrl).toBe('https://licences.exemple.fr/prod');
    expect(config.buyerTransfersPer30Days).toBe(0);
  });
  it('refuses bad values in one line each, naming the variable', () => {
    expect(
      errors(
        loadConfig({ LICENCE_PUBLIC_URL: 'licences.exemple.fr', LICENCE_BUYER_TRANSFERS_PER_30_DAYS: '101' }, CWD),
      ),
    ).toEqual([
      'LICENCE_PUBLIC_URL: expected an absolute http:// or https:// URL, got "licences.exemple.fr"',
      'LICENCE_BUYER_TRANSFERS_PER_30_DAYS: expected an integer from 0 to 100, got "101"',
    ]);
  });
});

describe('several bad values', () => {
  it('gives one line per bad value, each naming its variable', () => {
    const lines = errors(
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud', TRUST_PROXY: 'nope', LICENCE_ADMIN_TOKEN: 'short', HOST: 'a b' }, CWD),
    );
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'HOST',
      'PORT',
      'LICENCE_ADMIN_TOKEN',
      'TRUST_PROXY',
      'LOG_LEVEL',
    ]);
    for (const line of lines) expect(line).not.toContain('\n');
  });
});
