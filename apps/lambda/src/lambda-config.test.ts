import { loadConfig } from '@licence/koa-server';
import { loadSignatureVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { configErrorLine } from '@licence/service';
import type { Environment } from '@licence/service';
import { loadLambdaConfig, loadWebhooksConfig, startLogLevel } from './lambda-config.js';

const SEED = loadSignatureVectors().keys.primary.seed;
const BASE: Environment = { DATABASE_URL: 'postgres://licence:pw@db.internal:5432/licence', LICENCE_SIGNING_KEY: SEED };

function errorsOf(env: Environment): readonly string[] {
  const result = loadLambdaConfig(env, '/var/task');
  return result.ok ? [] : result.errors.map(configErrorLine);
}

/** One variable as the function reads it beside BASE (`undefined`: unset): its value, or the faults. */
function readingOf<K extends 'webhookAllowPrivate' | 'logLevel'>(key: K, variable: string, value: string | undefined) {
  const result = loadLambdaConfig(value === undefined ? BASE : { ...BASE, [variable]: value }, '/var/task');
  return result.ok ? { ok: true as const, value: result.value[key] } : result;
}
const allowPrivateOf = (value: string | undefined) =>
  readingOf('webhookAllowPrivate', 'LICENCE_WEBHOOK_ALLOW_PRIVATE', value);
const logLevelOf = (value: string | undefined) => readingOf('logLevel', 'LOG_LEVEL', value);

describe('loadLambdaConfig (the names of docs/protocol.md#configuration)', () => {
  it('reads a complete environment', () => {
    const result = loadLambdaConfig(
      {
        ...BASE,
        LICENCE_ADMIN_TOKEN: ' a-long-enough-token-0123456789-abcdefgh ',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        LOG_LEVEL: 'WARN',
        LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
      },
      '/var/task',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.databaseUrl).toBe(BASE.DATABASE_URL);
    expect(result.value.signingKey.kind).toBe('inline');
    expect(result.value.adminToken).toBe('a-long-enough-token-0123456789-abcdefgh');
    expect(result.value.trustProxy).toEqual({ cidrs: ['10.0.0.0/8', 'loopback'] });
    expect(result.value.logLevel).toBe('warn');
    expect(result.value.webhookAllowPrivate).toBe(true);
  });

  it('defaults: admin API off, no proxy trusted, info; an empty variable is unset', () => {
    const result = loadLambdaConfig(
      { ...BASE, LICENCE_ADMIN_TOKEN: '', TRUST_PROXY: ' ', LOG_LEVEL: '', LICENCE_WEBHOOK_ALLOW_PRIVATE: '' },
      '/var/task',
    );
    expect(result).toMatchObject({
      ok: true,
      value: { adminToken: undefined, trustProxy: undefined, logLevel: 'info', webhookAllowPrivate: false },
    });
  });

  it('DATABASE_URL and a signing key are required here (no lasting disk), each named in its own line', () => {
    expect(errorsOf({})).toEqual([
      'DATABASE_URL: required on AWS Lambda (no lasting disk for the SQLite file); set a postgres:// URL',
      'LICENCE_SIGNING_KEY: required on AWS Lambda (no data folder to keep a generated one); set LICENCE_SIGNING_KEY (a base64 32-byte seed: `licence keygen` makes one) or LICENCE_SIGNING_KEY_FILE',
    ]);
  });

  it('a relative LICENCE_SIGNING_KEY_FILE is resolved against the task folder', () => {
    const { LICENCE_SIGNING_KEY: _dropped, ...env } = BASE;
    expect(loadLambdaConfig({ ...env, LICENCE_SIGNING_KEY_FILE: 'keys/signing-key' }, '/var/task')).toMatchObject({
      ok: true,
      value: { signingKey: { kind: 'file', path: '/var/task/keys/signing-key' } },
    });
    expect(errorsOf({ ...env, LICENCE_SIGNING_KEY_FILE: 'a\0b' })).toEqual([
      'LICENCE_SIGNING_KEY_FILE: holds a NUL character',
    ]);
  });

  it('never shows the value of a secret in an error line', () => {
    const secrets = {
      DATABASE_URL: 'mysql://u:topsecret-db@h/d',
      LICENCE_SIGNING_KEY: 'dG9wc2VjcmV0LWtleQ==',
      LICENCE_ADMIN_TOKEN: 'topsecret-t',
    };
    const errors = errorsOf(secrets);
    expect(errors.map((line) => line.split(':')[0])).toEqual([
      'DATABASE_URL',
      'LICENCE_SIGNING_KEY',
      'LICENCE_ADMIN_TOKEN',
    ]);
    for (const value of Object.values(secrets)) expect(errors.join('\n')).not.toContain(value);
  });
});

describe('LICENCE_WEBHOOK_ALLOW_PRIVATE (docs/protocol.md#webhooks)', () => {
  it('exactly 1 turns it on; 0, empty or unset keep the destination rules', () => {
    expect(allowPrivateOf('1')).toEqual({ ok: true, value: true });
    expect(allowPrivateOf('0')).toEqual({ ok: true, value: false });
    expect(allowPrivateOf(undefined)).toEqual({ ok: true, value: false });
    // Read as every variable is: trimmed, and empty is unset.
    const allowed = (value: string) => {
      const result = loadLambdaConfig({ ...BASE, LICENCE_WEBHOOK_ALLOW_PRIVATE: value }, '/var/task');
      return result.ok ? result.value.webhookAllowPrivate : null;
    };
    expect([' 1 ', '0', '', ' '].map(allowed)).toEqual([true, false, false, false]);
  });

  it('anything else is a configuration error naming the variable, not a guess', () => {
    for (const value of ['true', 'yes', 'on', '01', '2', 'TRUE']) {
      expect(errorsOf({ ...BASE, LICENCE_WEBHOOK_ALLOW_PRIVATE: value })).toEqual([
        `LICENCE_WEBHOOK_ALLOW_PRIVATE: expected 1 (on) or 0 (off), got "${value}"`,
      ]);
    }
  });
});

describe('LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts)', () => {
  it('reads the comma list of patterns, normalised; unset or empty is none', () => {
    const staging = (env: Environment) => {
      const result = loadLambdaConfig(env, '/var/task');
      return result.ok ? result.value.stagingHosts : null;
    };
    expect(staging(BASE)).toEqual([]);
    expect(staging({ ...BASE, LICENCE_STAGING_HOSTS: ' ' })).toEqual([]);
    expect(staging({ ...BASE, LICENCE_STAGING_HOSTS: '*.Recette.fr., preview-*.a.fr' })).toEqual([
      '*.recette.fr',
      'preview-*.a.fr',
    ]);
  });

  it('a bad pattern is a configuration error naming the variable', () => {
    expect(errorsOf({ ...BASE, LICENCE_STAGING_HOSTS: '*.recette.fr, exemple.*' })).toEqual([
      'LICENCE_STAGING_HOSTS: "exemple.*" has a "*" outside its leftmost label',
    ]);
  });
});

describe('loadWebhooksConfig (the scheduled webhooks function)', () => {
  it('reads DATABASE_URL, LICENCE_WEBHOOK_ALLOW_PRIVATE and LOG_LEVEL: no signing key, no admin token', () => {
    expect(
      loadWebhooksConfig({
        DATABASE_URL: BASE.DATABASE_URL,
        LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
        LOG_LEVEL: 'debug',
      }),
    ).toEqual({
      ok: true,
      value: { databaseUrl: BASE.DATABASE_URL, webhookAllowPrivate: true, webhookConcurrency: 32, logLevel: 'debug' },
    });
    expect(loadWebhooksConfig({ DATABASE_URL: BASE.DATABASE_URL })).toEqual({
      ok: true,
      value: { databaseUrl: BASE.DATABASE_URL, webhookAllowPrivate: false, webhookConcurrency: 32, logLevel: 'info' },
    });
  });

  it('reads LICENCE_WEBHOOK_CONCURRENCY as the Koa server does (docs/protocol.md#delivery-on-aws-lambda)', () => {
    const read = loadWebhooksConfig({ DATABASE_URL: BASE.DATABASE_URL, LICENCE_WEBHOOK_CONCURRENCY: '8' });
    expect(read.ok && read.value.webhookConcurrency).toBe(8);
    for (const value of ['0', '1001', 'lots']) {
      const env = { DATABASE_URL: BASE.DATABASE_URL, LICENCE_WEBHOOK_CONCURRENCY: value };
      const lambda = loadWebhooksConfig(env);
      const koa = loadConfig(env, '/var/task');
      expect(lambda.ok ? [] : lambda.errors.map(configErrorLine)).toEqual([
        `LICENCE_WEBHOOK_CONCURRENCY: expected an integer from 1 to 1000, got "${value}"`,
      ]);
      expect(lambda.ok ? [] : lambda.errors).toEqual(koa.ok ? [] : koa.errors);
    }
  });

  it('names every bad variable, one line each, never the database URL', () => {
    const lines = (env: Environment) => {
      const result = loadWebhooksConfig(env);
      return result.ok ? [] : result.errors.map(configErrorLine);
    };
    expect(lines({})).toEqual([
      'DATABASE_URL: required on AWS Lambda (the outbox to drain is in PostgreSQL); set a postgres:// URL',
    ]);
    const bad = lines({
      DATABASE_URL: 'mysql://u:pw-secret@h/d',
      LICENCE_WEBHOOK_ALLOW_PRIVATE: 'yes',
      LOG_LEVEL: 'loud',
    });
    expect(bad.map((line) => line.split(':')[0])).toEqual([
      'DATABASE_URL',
      'LICENCE_WEBHOOK_ALLOW_PRIVATE',
      'LOG_LEVEL',
    ]);
    expect(bad.join('\n')).not.toContain('pw-secret');
  });
});

describe('LOG_LEVEL', () => {
  it('takes the Koa server levels in any case, and names LOG_LEVEL otherwise', () => {
    expect(logLevelOf(undefined)).toEqual({ ok: true, value: 'info' });
    expect(logLevelOf('Debug')).toEqual({ ok: true, value: 'debug' });
    expect(logLevelOf('silent')).toEqual({ ok: true, value: 'silent' });
    const loud = logLevelOf('loud');
    expect(loud.ok ? [] : loud.errors.map(configErrorLine)).toEqual([
      'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
  });

  it('startLogLevel: the level to log at before the configuration is read, `info` while LOG_LEVEL is bad', () => {
    expect(startLogLevel({})).toBe('info');
    expect(startLogLevel({ LOG_LEVEL: ' Debug ' })).toBe('debug');
    expect(startLogLevel({ LOG_LEVEL: 'loud' })).toBe('info');
    // Only LOG_LEVEL counts: the other variables, bad or missing, are the configuration's to report.
    expect(startLogLevel({ LOG_LEVEL: 'warn', DATABASE_URL: 'http://x', TRUST_PROXY: 'true' })).toBe('warn');
  });
});

describe('the same reading as the Koa server (one configuration, two adapters)', () => {
  /** Environments on which both must agree: every variable the two share, good and bad values. */
  const environments: Environment[] = [
    BASE,
    { ...BASE, DATABASE_URL: 'postgresql:///licence' },
    { ...BASE, DATABASE_URL: 'http://x' },
    { ...BASE, DATABASE_URL: 'not a url' },
    { ...BASE, LICENCE_SIGNING_KEY: 'AAAA' },
    { ...BASE, LICENCE_SIGNING_KEY: `${SEED}x` },
    { ...BASE, LICENCE_SIGNING_KEY_FILE: '/run/secrets/key' },
    { ...BASE, LICENCE_ADMIN_TOKEN: 'x'.repeat(15) },
    { ...BASE, LICENCE_ADMIN_TOKEN: 'x'.repeat(32) },
    { ...BASE, LICENCE_ADMIN_TOKEN: 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s' },
    ...[
      '1',
      '32',
      '33',
      'true',
      'false',
      '0',
      '10.0.0.0/8',
      '10.0.0.0/33',
      'loopback,uniquelocal',
      '::1, 2001:db8::/32',
      'a,,b',
      'nonsense',
    ].map((value) => ({ ...BASE, TRUST_PROXY: value })),
    ...['trace', 'INFO', 'verbose'].map((value) => ({ ...BASE, LOG_LEVEL: value })),
    ...['1', '0', '', ' 1 ', 'yes', 'true'].map((value) => ({ ...BASE, LICENCE_WEBHOOK_ALLOW_PRIVATE: value })),
    ...['', '0', '25', '1000', '1001', '-1', 'ten'].map((value) => ({ ...BASE, LICENCE_WEBHOOKS_PER_AUTHOR: value })),
    ...['', '*.recette.fr, Preview-*.A.fr.', 'a.fr,,b.fr', 'exemple.*'].map((value) => ({
      ...BASE,
      LICENCE_STAGING_HOSTS: value,
    })),
  ];

  it.each(environments.map((env) => [JSON.stringify(env).replace(SEED, '<seed>'), env] as const))(
    '%s',
    (_label, env) => {
      const koa = loadConfig(env, '/var/task');
      const lambda = loadLambdaConfig(env, '/var/task');
      expect(lambda.ok ? [] : lambda.errors).toEqual(koa.ok ? [] : koa.errors);
      if (koa.ok && lambda.ok) {
        expect(lambda.value.trustProxy).toEqual(koa.value.trustProxy);
        expect(lambda.value.adminToken).toBe(koa.value.adminToken);
        expect(lambda.value.logLevel).toBe(koa.value.logLevel);
        expect(lambda.value.signingKey).toEqual(koa.value.signingKey);
        expect(lambda.value.webhookAllowPrivate).toBe(koa.value.webhookAllowPrivate);
        expect(lambda.value.webhooksPerAuthor).toBe(koa.value.webhooksPerAuthor);
        expect(lambda.value.stagingHosts).toEqual(koa.value.stagingHosts);
        expect(koa.value.database).toEqual({ kind: 'postgres', url: lambda.value.databaseUrl });
      }
    },
  );
});
