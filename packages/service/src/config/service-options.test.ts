import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@licence/store-memory';
import { createTestLogger, TEST_SEED } from '../../test/harness.js';
import { createMemoryRateLimiter, createNodeSigner, randomBytes } from '../ports/index.js';
import { readServiceConfig } from './service-config.js';
import { delivererOptions, serviceOptions } from './service-options.js';

const ports = () => ({
  store: createMemoryStore(),
  rateLimiter: createMemoryRateLimiter(),
  signer: createNodeSigner(TEST_SEED),
  logger: createTestLogger(),
});

/** The shared variables as an app reads them. */
function config(env: Record<string, string> = {}) {
  const read = readServiceConfig(env, '/srv');
  if (!read.ok) throw new Error('expected a configuration');
  return read.value;
}

describe('serviceOptions (docs/protocol.md#configuration)', () => {
  it('leaves out what is unset, so that createService applies its own default', () => {
    const given = ports();
    const options = serviceOptions(config(), given);
    expect(options).toEqual({
      ...given,
      clock: { now: Date.now },
      random: randomBytes,
      webhookAllowPrivate: false,
      webhooksPerAuthor: 10,
      stagingHosts: [],
    });
    for (const key of ['trustProxy', 'adminToken', 'publicUrl', 'buyerTransfersPer30Days', 'console']) {
      expect(options).not.toHaveProperty(key);
    }
  });

  it('hands on every setting that is set, and the clock, randomness and console given', () => {
    const now = () => 1_000;
    const random = (length: number) => new Uint8Array(length);
    const console = { files: { 'index.html': { type: 'text/html', body: '<!doctype html>' } } };
    const options = serviceOptions(
      config({
        LICENCE_ADMIN_TOKEN: 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s',
        TRUST_PROXY: '1',
        LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
        LICENCE_WEBHOOKS_PER_AUTHOR: '3',
        LICENCE_STAGING_HOSTS: '*.recette.fr',
        LICENCE_PUBLIC_URL: 'https://licences.exemple.fr/',
        LICENCE_BUYER_TRANSFERS_PER_30_DAYS: '0',
      }),
      { ...ports(), now, random, console },
    );
    expect(options).toMatchObject({
      adminToken: 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s',
      trustProxy: { hops: 1 },
      webhookAllowPrivate: true,
      webhooksPerAuthor: 3,
      stagingHosts: ['*.recette.fr'],
      publicUrl: 'https://licences.exemple.fr',
      buyerTransfersPer30Days: 0,
      random,
      console,
    });
    expect(options.clock.now()).toBe(1_000);
  });
});

describe('delivererOptions (docs/protocol.md#delivery)', () => {
  it('the destination rule and the attempts in flight, on the store and clock given', () => {
    const { store, logger } = ports();
    const options = delivererOptions(config({ LICENCE_WEBHOOK_ALLOW_PRIVATE: '1', LICENCE_WEBHOOK_CONCURRENCY: '8' }), {
      store,
      logger,
      now: () => 5_000,
    });
    expect(options).toMatchObject({ store, logger, allowPrivate: true, concurrency: 8 });
    expect(options.clock.now()).toBe(5_000);
    expect(delivererOptions(config(), { store, logger }).clock).toEqual({ now: Date.now });
  });
});
