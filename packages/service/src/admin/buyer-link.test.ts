import { describe, expect, it } from 'vitest';
import { createTestClock, createTestLogger, TEST_SEED } from '../../test/harness.js';
import { checkBuyerToken } from '../buyer/index.js';
import { buyerLinkTtl } from './buyer-link.js';
import { createKeyAdmin } from './key-admin.js';
import { createMemoryStore } from '@licence/store-memory';
import { createNodeSigner } from '../ports/index.js';
import { createNodeVerifier } from '../ports/index.js';

/** buyerLink without HTTP, as the `licence key buyer-link` command runs it (docs/protocol.md#buyer-links). */

const random = (length: number) => new Uint8Array(length).fill(5);

async function setup(withSigner: boolean) {
  const store = createMemoryStore();
  const clock = createTestClock();
  const signer = createNodeSigner(TEST_SEED);
  const options = { store, clock, random, logger: createTestLogger() };
  const admin = createKeyAdmin(withSigner ? { ...options, signer } : options);
  await admin.addProduct({ id: 'theme', author: 'alice', name: 'Theme' });
  const { cle } = await admin.issueKey({ produit: 'theme', kind: 'buyer' });
  return { admin, cle, signer, clock };
}

describe('KeyAdmin buyerLink', () => {
  it('answers the base, /buyer/ and a token of the key, which the service signer verifies', async () => {
    const { admin, cle, signer, clock } = await setup(true);
    const link = await admin.buyerLink(cle, 'https://licences.example.com', { ttl: 3600 });
    expect(link.expires).toBe('2026-11-22T11:14:00Z');
    const token = link.url.slice('https://licences.example.com/buyer/'.length);
    expect(link.url.startsWith('https://licences.example.com/buyer/')).toBe(true);
    const now = Math.floor(clock.now() / 1000);
    expect(checkBuyerToken(createNodeVerifier(signer.publicKey), token, now)).toMatchObject({
      status: 'valid',
      hint: cle.slice(-4),
    });
  });

  it('throws, not refuses, when it was given no signer: a wiring mistake', async () => {
    const { admin, cle } = await setup(false);
    await expect(admin.buyerLink(cle, 'https://licences.example.com')).rejects.toThrow(
      'buyerLink: createKeyAdmin was given no signer (KeyAdminOptions signer)',
    );
  });

  it('takes a ttl from 60 to 2592000 seconds, 86400 by default', () => {
    expect(buyerLinkTtl(undefined)).toBe(86_400);
    expect(buyerLinkTtl(60)).toBe(60);
    expect(buyerLinkTtl(2_592_000)).toBe(2_592_000);
    for (const bad of [59, 2_592_001, 60.5, Number.NaN]) {
      expect(() => buyerLinkTtl(bad)).toThrow('ttl: expected an integer from 60 to 2592000 (seconds)');
    }
  });
});
