import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configErrorLine, invalid, type Parsed, parsed } from './parsed.js';
import { CONFIGURATION_VARIABLES, interleaved, readServiceConfig } from './service-config.js';
import { variableReaders } from './shared-config.js';

// 32 bytes of 0x01, base64: a valid seed for these tests only.
const SEED = Buffer.alloc(32, 1).toString('base64');

function lines<T>(result: Parsed<T>): readonly string[] {
  return result.ok ? [] : result.errors.map(configErrorLine);
}

describe('readServiceConfig (docs/protocol.md#configuration)', () => {
  it('reads every shared variable, in the order of the table, each with its default when unset', () => {
    const read = readServiceConfig({}, '/srv');
    expect(read.ok && Object.keys(read.value)).toEqual([
      'databaseUrl',
      'signingKey',
      'adminToken',
      'trustProxy',
      'clientAddress',
      'logLevel',
      'logLevelSet',
      'webhookAllowPrivate',
      'webhooksPerAuthor',
      'webhookConcurrency',
      'stagingHosts',
      'publicUrl',
      'buyerTransfersPer30Days',
    ]);
    expect(read).toMatchObject({ ok: true, value: { logLevel: 'info', logLevelSet: false, webhooksPerAuthor: 10 } });
  });

  it('reads each as its own parser does: the same values as its reader alone', () => {
    const env = {
      DATABASE_URL: 'postgres://db/x',
      LICENCE_SIGNING_KEY_FILE: 'keys/k',
      TRUST_PROXY: '2',
      LOG_LEVEL: ' Debug ',
      LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
      LICENCE_WEBHOOK_CONCURRENCY: '8',
      LICENCE_STAGING_HOSTS: '*.Recette.fr.',
      LICENCE_PUBLIC_URL: 'https://Licences.Exemple.fr/prod/',
      LICENCE_BUYER_TRANSFERS_PER_30_DAYS: '0',
    };
    const read = readServiceConfig(env, '/srv');
    const readers = variableReaders(env, '/srv');
    // Every reader but clientAddress, whose rules are functions made anew by each reading.
    for (const key of Object.keys(readers).filter((name) => name !== 'clientAddress') as (keyof typeof readers)[]) {
      const reading = readers[key]();
      expect(read.ok && read.value[key], key).toEqual(reading.ok && reading.value);
    }
    expect(read).toMatchObject({
      ok: true,
      value: {
        signingKey: { kind: 'file', path: '/srv/keys/k' },
        logLevel: 'debug',
        logLevelSet: true,
        stagingHosts: ['*.recette.fr'],
        publicUrl: 'https://licences.exemple.fr/prod',
        buyerTransfersPer30Days: 0,
      },
    });
  });

  it('lists the faults of the shared variables in the order the app names them', () => {
    const env = { LOG_LEVEL: 'loud', LICENCE_WEBHOOK_ALLOW_PRIVATE: 'yes', DATABASE_URL: 'http://x' };
    const only = ['databaseUrl', 'webhookAllowPrivate', 'logLevel'] as const;
    expect(lines(readServiceConfig(env, '/srv', { only })).map((line) => line.split(':')[0])).toEqual([
      'DATABASE_URL',
      'LICENCE_WEBHOOK_ALLOW_PRIVATE',
      'LOG_LEVEL',
    ]);
    expect(lines(readServiceConfig(env, '/srv')).map((line) => line.split(':')[0])).toEqual([
      'DATABASE_URL',
      'LOG_LEVEL',
      'LICENCE_WEBHOOK_ALLOW_PRIVATE',
    ]);
  });

  it('reads only the variables an app names: a bad value of another stops nothing', () => {
    const env = { LICENCE_WEBHOOK_CONCURRENCY: 'lots', LICENCE_ADMIN_TOKEN: 'short', LOG_LEVEL: 'warn' };
    expect(lines(readServiceConfig(env, '/srv'))).toHaveLength(2);
    expect(readServiceConfig(env, '/srv', { only: ['logLevel', 'webhookAllowPrivate'] })).toEqual({
      ok: true,
      value: { logLevel: 'warn', webhookAllowPrivate: false },
    });
  });

  it('reads TRUST_PROXY once for its two keys: one fault for a bad value, whichever the app names', () => {
    const env = { TRUST_PROXY: 'true' };
    const fault = expect.stringMatching(/^TRUST_PROXY: "true" would believe any client's X-Forwarded-For/);
    expect(lines(readServiceConfig(env, '/srv'))).toEqual([fault]);
    expect(lines(readServiceConfig(env, '/srv', { only: ['clientAddress'] }))).toEqual([fault]);
    expect(lines(readServiceConfig(env, '/srv', { only: ['clientAddress', 'trustProxy'] }))).toEqual([fault]);
    const good = readServiceConfig({ TRUST_PROXY: '10.0.0.0/8' }, '/srv', { only: ['trustProxy', 'clientAddress'] });
    expect(good.ok && good.value.trustProxy).toEqual({ cidrs: ['10.0.0.0/8'] });
    expect(good.ok && good.value.clientAddress.connectionKey('10.1.2.3')).toBeUndefined();
    expect(good.ok && good.value.clientAddress.connectionKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('a required variable unset is a fault of its own, with the message the app gives', () => {
    const required = { databaseUrl: 'required here', signingKey: 'a key is required here' };
    expect(lines(readServiceConfig({}, '/srv', { only: ['databaseUrl', 'signingKey', 'logLevel'], required }))).toEqual(
      ['DATABASE_URL: required here', 'LICENCE_SIGNING_KEY: a key is required here'],
    );
    // A bad value stays the fault it was.
    expect(lines(readServiceConfig({ DATABASE_URL: 'http://x' }, '/srv', { only: ['databaseUrl'], required }))).toEqual(
      ['DATABASE_URL: expected a postgres:// or postgresql:// URL (value not shown)'],
    );
    const set = readServiceConfig({ DATABASE_URL: 'postgres://db/x', LICENCE_SIGNING_KEY: SEED }, '/srv', { required });
    expect(set.ok && set.value.databaseUrl).toBe('postgres://db/x');
  });

  it("adds an app's own readings, every fault in the order of the table whoever read it", () => {
    const read = readServiceConfig(
      { LOG_LEVEL: 'loud', LICENCE_ADMIN_TOKEN: 'short', LICENCE_PUBLIC_URL: 'x' },
      '/srv',
      {
        own: {
          workers: invalid('LICENCE_WORKERS', 'bad'),
          host: invalid('HOST', 'bad'),
          maxConnections: invalid('LICENCE_MAX_CONNECTIONS', 'bad'),
          port: parsed(8080),
        },
      },
    );
    expect(lines(read).map((line) => line.split(':')[0])).toEqual([
      'HOST',
      'LICENCE_ADMIN_TOKEN',
      'LOG_LEVEL',
      'LICENCE_MAX_CONNECTIONS',
      'LICENCE_PUBLIC_URL',
      'LICENCE_WORKERS',
    ]);
    const good = readServiceConfig({}, '/srv', { only: ['logLevel'], own: { port: parsed(8080) } });
    expect(good).toEqual({ ok: true, value: { logLevel: 'info', port: 8080 } });
  });
});

describe('interleaved', () => {
  const fault = (variable: string) => ({ variable, message: variable });
  it("keeps the shared faults' order, and puts each of the app's own before the first shared one the table puts after it", () => {
    const shared = ['DATABASE_URL', 'LICENCE_WEBHOOK_ALLOW_PRIVATE', 'LOG_LEVEL'].map(fault);
    expect(interleaved(shared, []).map((error) => error.variable)).toEqual([
      'DATABASE_URL',
      'LICENCE_WEBHOOK_ALLOW_PRIVATE',
      'LOG_LEVEL',
    ]);
    const own = ['ELSEWHERE', 'LICENCE_WORKERS', 'HOST', 'LICENCE_MAX_CONNECTIONS'].map(fault);
    expect(
      interleaved(['LICENCE_ADMIN_TOKEN', 'LICENCE_STAGING_HOSTS'].map(fault), own).map((error) => error.variable),
    ).toEqual([
      'HOST',
      'LICENCE_ADMIN_TOKEN',
      'LICENCE_MAX_CONNECTIONS',
      'LICENCE_STAGING_HOSTS',
      'LICENCE_WORKERS',
      'ELSEWHERE',
    ]);
  });

  it("lists the variables of docs/protocol.md#configuration's table, in its order", () => {
    const protocol = readFileSync(new URL('../../../../docs/protocol.md', import.meta.url), 'utf8');
    const section = protocol.slice(protocol.indexOf('\n## Configuration'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| variable')));
    const names = [...table.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]);
    expect(names).toEqual(CONFIGURATION_VARIABLES);
  });
});
