import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFileName } from '../src/cache-file.js';
import { DEFAULT_TIMEOUT_MS } from '../src/call-service.js';
import { Licence } from '../src/licence.js';
import type { LicenceOptions } from '../src/licence-options.js';
import { DAY, licenceOptions, PRODUIT, serverAndFolderEachTest } from './end-to-end-setup.js';
import { startFakeService } from './fake-service.js';
import { TEST_PUBLIC_KEY } from './licence-server.js';
import type { LicenceServer } from './licence-server.js';

/**
 * End-to-end scenarios, each against the real Koa server (createApp + createService +
 * SQLite) started here, or a fake service on loopback where the real one cannot misbehave as
 * needed. The client's clock is the server's, moved by the test: nothing waits for real time.
 */

const HOST = 'https://www.boutique.exemple.fr/panier';
const HOTE = 'boutique.exemple.fr';

let server: LicenceServer;
let dir: string;
let errors: Error[];

serverAndFolderEachTest('licence-client-', (setup) => {
  ({ server, dir } = setup);
  errors = [];
});

function licenceFor(cle: string, options: Partial<LicenceOptions> = {}): Licence {
  return new Licence({ ...optionsOf(cle), onError: (error) => errors.push(error), ...options });
}

/** A fetch that counts its calls and delegates to the real one: every call is a connection attempt. */
function countingFetch(): { fetch: typeof fetch; attempts: () => number } {
  let attempts = 0;
  return {
    fetch: (input, init) => {
      attempts += 1;
      return fetch(input, init);
    },
    attempts: () => attempts,
  };
}

async function cacheFile(cle: string, produit = PRODUIT, hote = HOTE): Promise<string> {
  return join(dir, await cacheFileName(produit, cle.replace(/-/g, ''), hote));
}

function readRecord(file: string): {
  envelope: { donnees: Record<string, unknown>; signature: string } | null;
  failures: number;
  retryAt: number;
  recu?: number;
} {
  return JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof readRecord>;
}

const nowSeconds = () => Math.floor(server.clock.now() / 1000);

describe('end-to-end scenarios against the real Koa server', () => {
  it('first call: one request, a signed verdict stored in a 0600 file whose name holds no key', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({
      state: 'refreshed',
      runs: true,
      donnees: { ok: true, domaine: 'exemple.fr', hote: HOTE, produit: PRODUIT },
    });
    expect(licence.essai()).toBe(false);
    expect(licence.message()).toBe('Licence valide pour exemple.fr.');
    expect(licence.message('en')).toBe('Licence valid for exemple.fr.');
    expect(server.calls()).toBe(1);

    const files = readdirSync(dir);
    expect(files).toEqual([await cacheFileName(PRODUIT, cle.replace(/-/g, ''), HOTE)]);
    const bare = cle.replace(/-/g, '');
    expect(files.join()).not.toContain(bare);
    expect(files.join()).not.toContain(bare.slice(-4).toLowerCase());
    const file = join(dir, files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(bare);
    expect(readRecord(file)).toMatchObject({ failures: 0, retryAt: 0, recu: nowSeconds() });
    expect(errors).toEqual([]);
  });

  it('fresh: the server counts zero calls (same instance, and a new one reading the file)', async () => {
    const cle = await server.issueKey(PRODUIT);
    await licenceFor(cle).valide();
    const calls = server.calls();
    server.clock.advance(DAY - 1);
    const same = licenceFor(cle);
    expect(await same.valide()).toBe(true);
    expect(same.verdict?.state).toBe('fresh');
    for (let index = 0; index < 50; index += 1) await same.valide();
    expect(await licenceFor(cle).valide()).toBe(true);
    expect(server.calls() - calls).toBe(0);
  });

  it('stale refresh: at revalider one call, a new verdict stored and used', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    await licence.valide();
    const firstEmis = licence.verdict?.donnees.emis ?? 0;
    server.clock.advance(DAY);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({ state: 'refreshed', donnees: { emis: firstEmis + DAY } });
    expect(server.calls()).toBe(2);
    expect(readRecord(await cacheFile(cle)).envelope?.donnees.emis).toBe(firstEmis + DAY);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('fresh');
    expect(server.calls()).toBe(2);
  });

  it('server stopped: grace keeps the verdict, and the back-off means a second valide() makes no new connection attempt', async () => {
    const cle = await server.issueKey(PRODUIT);
    const counting = countingFetch();
    const licence = licenceFor(cle, { fetch: counting.fetch });
    await licence.valide();
    await server.close();
    server.clock.advance(DAY + 60);

    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({ state: 'grace', runs: true, donnees: { ok: true } });
    expect(counting.attempts()).toBe(2);
    const file = await cacheFile(cle);
    expect(readRecord(file)).toMatchObject({ failures: 1, retryAt: nowSeconds() + 300 });
    expect(licence.message('en')).toBe(
      'Licence valid for exemple.fr. The licence service is not answering; last checked on 5 January 2026 at 09:00 UTC.',
    );

    // Inside the back-off: no attempt at all, from this instance or a new one (a new process).
    server.clock.advance(299);
    expect(await licence.valide()).toBe(true);
    const other = countingFetch();
    expect(await licenceFor(cle, { fetch: other.fetch }).valide()).toBe(true);
    expect(counting.attempts() + other.attempts()).toBe(2);

    // Once it is over, one attempt, and the next wait doubles (docs/protocol.md#back-off: 5 min
    // doubling).
    server.clock.advance(1);
    expect(await licence.valide()).toBe(true);
    expect(counting.attempts()).toBe(3);
    expect(readRecord(file)).toMatchObject({ failures: 2, retryAt: nowSeconds() + 600 });
  });

  it('grace over: lapsed, motif reseau, valide() is true', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    await licence.valide();
    await server.close();
    server.clock.advance(30 * DAY);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({
      state: 'lapsed',
      runs: true,
      donnees: { ok: false, motif: 'reseau', hote: HOTE },
    });
    expect(licence.message('fr')).toBe(
      "Le service de licence n'a pas pu être joint : le produit continue de fonctionner et vérifiera la licence plus tard.",
    );
    // One second earlier it was still grace: checked on a second copy of the same cache.
    expect(licence.essai()).toBe(false);
  });

  it('revoke then refresh: the signed refusal stops the product at once, and keeps it stopped through an outage', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    await licence.valide();
    server.clock.advance(3600);
    await server.admin('POST', `/admin/keys/${cle}/revoke`, { reason: 'chargeback' });
    // Before revalider the fresh verdict stands (docs/protocol.md#states: reused for 24 hours).
    expect(await licence.valide()).toBe(true);
    server.clock.advance(DAY - 3600);
    expect(await licence.valide()).toBe(false);
    expect(licence.verdict).toMatchObject({
      state: 'refreshed',
      runs: false,
      donnees: { ok: false, motif: 'revocation', quand: '2026-01-05T10:00:00Z' },
    });
    expect(licence.message()).toBe(
      "Cette clé de licence a été révoquée le 5 janvier 2026 à 10:00 UTC. Contactez l'éditeur du produit. Domaines concernés : exemple.fr.",
    );
    expect(licence.message('en')).toBe(
      "This licence key was revoked on 5 January 2026 at 10:00 UTC. Contact the product's publisher. Domains concerned: exemple.fr.",
    );
    expect(await licenceFor(cle).valide()).toBe(false);

    await server.close();
    server.clock.advance(DAY);
    expect(await licence.valide()).toBe(false);
    expect(licence.verdict?.state).toBe('grace');
  });

  it('transfer: the old site stops at revalider, not before', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    await licence.valide();
    const revalider = licence.verdict?.donnees.revalider ?? 0;
    server.clock.advance(7200);
    const moved = await server.admin('POST', `/admin/keys/${cle}/transfer`, { from: 'exemple.fr', to: 'nouveau.fr' });
    expect(typeof moved.cle).toBe('string');

    server.clock.advance(revalider - nowSeconds() - 1);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('fresh');
    expect(server.calls()).toBe(1);

    server.clock.advance(1);
    expect(await licence.valide()).toBe(false);
    expect(licence.verdict).toMatchObject({
      state: 'refreshed',
      donnees: { motif: 'transfert', quand: '2026-01-05T11:00:00Z' },
    });
    expect(licence.message()).toBe(
      'Cette clé de licence a été transférée vers un autre site le 5 janvier 2026 à 11:00 UTC. Saisissez la nouvelle clé reçue lors du transfert. Domaines concernés : exemple.fr.',
    );
    // The new key runs on the new site.
    const newSite = new Licence({ ...optionsOf(String(moved.cle)), host: 'nouveau.fr', cacheDir: dir });
    expect(await newSite.valide()).toBe(true);
  });

  it('429: the cached verdict is kept, and the back-off is what Retry-After says', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle);
    await licence.valide();
    server.clock.advance(DAY);
    // Fill the rate limit's window (docs/protocol.md#rate-limit) for 127.0.0.1: 30 accepted
    // requests in 60 s.
    for (let index = 0; index < 30; index += 1) {
      await fetch(`${server.url}/api/licence`, {
        method: 'POST',
        headers: { 'user-agent': 'Filler/1.0', 'content-type': 'application/json' },
        body: '{}',
      });
    }
    const calls = server.calls();
    expect(await licence.valide()).toBe(true);
    expect(server.calls()).toBe(calls + 1);
    expect(licence.verdict).toMatchObject({ state: 'grace', runs: true, donnees: { ok: true } });
    const record = readRecord(await cacheFile(cle));
    expect(record.envelope?.donnees.ok).toBe(true);
    expect(record).toMatchObject({ failures: 1, retryAt: nowSeconds() + 60 });
    // Honoured: no call before it, one after.
    server.clock.advance(59);
    await licence.valide();
    expect(server.calls()).toBe(calls + 1);
    server.clock.advance(1);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
    expect(server.calls()).toBe(calls + 2);
  });

  it('a tampered cache file is ignored, and a fresh call made', async () => {
    const cle = await server.issueKey(PRODUIT);
    await licenceFor(cle).valide();
    server.clock.advance(DAY + 60);
    const file = await cacheFile(cle);
    const record = readRecord(file);
    if (record.envelope === null) throw new Error('no envelope stored');
    // Pushed a year ahead after signing: the signature no longer matches.
    record.envelope.donnees.revalider = nowSeconds() + 365 * DAY;
    writeFileSync(file, JSON.stringify(record));
    const licence = licenceFor(cle);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
    expect(server.calls()).toBe(2);
    expect(readRecord(file).envelope?.donnees.revalider).toBe(nowSeconds() + DAY);
  });

  it('a cache file copied from another host is ignored', async () => {
    const cle = await server.issueKey(PRODUIT, { sites: 2 });
    await licenceFor(cle).valide();
    copyFileSync(await cacheFile(cle), await cacheFile(cle, PRODUIT, 'autre.fr'));
    const other = licenceFor(cle, { host: 'autre.fr' });
    expect(await other.valide()).toBe(true);
    expect(other.verdict).toMatchObject({ state: 'refreshed', donnees: { hote: 'autre.fr', domaine: 'autre.fr' } });
    expect(server.calls()).toBe(2);
  });

  it('a cache file copied from another product is ignored (a cheap product does not unlock another)', async () => {
    const cle = await server.issueKey(PRODUIT);
    await server.issueKey('autre-produit');
    await licenceFor(cle).valide();
    copyFileSync(await cacheFile(cle), await cacheFile(cle, 'autre-produit'));
    const other = licenceFor(cle, { produit: 'autre-produit' });
    expect(await other.valide()).toBe(false);
    expect(other.verdict).toMatchObject({
      state: 'refreshed',
      donnees: { ok: false, motif: 'inconnue', produit: 'autre-produit' },
    });
    expect(other.message('en')).toBe('This licence key does not exist for this product: check the key you entered.');
    expect(server.calls()).toBe(2);
  });

  it('a replayed old response served by a fake service on loopback is rejected (wrong nonce)', async () => {
    const cle = await server.issueKey(PRODUIT);
    // The answer an attacker captured while the key was good...
    const captured = await fetch(`${server.url}/api/licence`, {
      method: 'POST',
      headers: { 'user-agent': 'Capture/1.0', 'content-type': 'application/json' },
      body: JSON.stringify({ cle, url: HOTE, produit: PRODUIT, nonce: 'captured-nonce-0001' }),
    }).then((response) => response.text());
    await licenceFor(cle).valide();
    await server.admin('POST', `/admin/keys/${cle}/revoke`, {});
    server.clock.advance(DAY);
    // ...replayed by a local service (a hosts-file entry) once the key is revoked.
    const fake = await startFakeService();
    try {
      fake.answer({ status: 200, body: captured });
      const licence = licenceFor(cle, { url: fake.url });
      await licence.valide();
      expect(fake.requests).toHaveLength(1);
      const sent = JSON.parse(fake.requests[0]?.body ?? '{}') as { nonce?: string };
      expect(sent.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(sent.nonce).not.toBe('captured-nonce-0001');
      expect(licence.verdict?.state).toBe('grace');
      expect(readRecord(await cacheFile(cle))).toMatchObject({ failures: 1, retryAt: nowSeconds() + 300 });

      // With no cache at all the replay is a failed call too: lapsed (runs, unsigned), never a verdict.
      rmSync(await cacheFile(cle));
      const fresh = licenceFor(cle, { url: fake.url });
      await fresh.valide();
      expect(fresh.verdict).toMatchObject({ state: 'lapsed', donnees: { motif: 'reseau' } });
    } finally {
      await fake.close();
    }
  });

  it(`a slow fake service: the client gives up at the timeout (${DEFAULT_TIMEOUT_MS / 1000} s by default, injected here)`, async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(6000);
    const cle = await server.issueKey(PRODUIT);
    await licenceFor(cle).valide();
    server.clock.advance(DAY);
    const fake = await startFakeService();
    try {
      fake.answer('hang');
      // Long enough for the request to reach the fake on a busy machine: the fake counts only what arrived.
      const licence = licenceFor(cle, { url: fake.url, timeoutMs: 1000 });
      expect(await licence.valide()).toBe(true);
      expect(licence.verdict).toMatchObject({ state: 'grace', runs: true });
      expect(fake.requests).toHaveLength(1);
      // The service never answered; the client closed the connection.
      await expect.poll(() => fake.abandoned(), { timeout: 10_000 }).toBe(1);
      expect(readRecord(await cacheFile(cle))).toMatchObject({ failures: 1, retryAt: nowSeconds() + 300 });
    } finally {
      await fake.close();
    }
  });
});

describe('more of the client against the real server', () => {
  it('a staging host: essai, nothing bound, a discreet notice', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle, { host: 'staging.boutique.exemple.fr' });
    expect(await licence.valide()).toBe(true);
    expect(licence.essai()).toBe(true);
    expect(licence.message('en')).toBe(
      'Licence in trial mode on staging.boutique.exemple.fr (a test site or a development key).',
    );
    // The site's own first call still binds it: staging used no slot.
    expect(await licenceFor(cle).valide()).toBe(true);
  });

  it('another site on a one-site key: a signed refusal naming the bound domain', async () => {
    const cle = await server.issueKey(PRODUIT);
    await licenceFor(cle).valide();
    const other = licenceFor(cle, { host: 'https://autre-boutique.fr' });
    expect(await other.valide()).toBe(false);
    expect(other.message()).toBe(
      "Cette clé de licence est déjà utilisée sur exemple.fr. Transférez-la depuis votre compte pour l'utiliser sur autre-boutique.fr.",
    );
  });

  it('a key as the buyer pasted it (spaces, dashes, lower case) is the same key and the same cache', async () => {
    const cle = await server.issueKey(PRODUIT);
    await licenceFor(cle).valide();
    const pasted = ` ${cle.toLowerCase().replace(/-/g, ' - ')} `;
    const licence = licenceFor(pasted);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('fresh');
    expect(server.calls()).toBe(1);
  });

  it('concurrent valide() calls in one process make one request', async () => {
    const cle = await server.issueKey(PRODUIT);
    server.setDelay(100);
    const licence = licenceFor(cle);
    const answers = await Promise.all(Array.from({ length: 20 }, () => licence.valide()));
    expect(answers.every(Boolean)).toBe(true);
    expect(server.calls()).toBe(1);

    // Stale: while one call is out (held by the server until released), the others keep the cached
    // verdict at once.
    server.clock.advance(DAY);
    const release = server.hold();
    const first = licence.valide();
    await expect.poll(() => server.calls(), { timeout: 10_000 }).toBe(2);
    const second = await licence.valide();
    release();
    expect(second).toBe(true);
    expect(licence.verdict?.state).toBe('grace');
    expect(await first).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
    expect(server.calls()).toBe(2);
  });

  it('two instances with no cache (two processes): the second waits for the first, no second request', async () => {
    const cle = await server.issueKey(PRODUIT);
    const release = server.hold();
    const [a, b] = [licenceFor(cle), licenceFor(cle)];
    const first = a.valide();
    // The first's request reached the server: it holds the lock when the second looks.
    await expect.poll(() => server.calls(), { timeout: 10_000 }).toBe(1);
    const second = b.valide();
    release();
    expect(await second).toBe(true);
    expect(b.verdict?.state).toBe('fresh');
    expect(await first).toBe(true);
    expect(server.calls()).toBe(1);
  });

  it('a cache folder that cannot be written: onError is told, the verdict and the back-off hold in memory', async () => {
    const cle = await server.issueKey(PRODUIT);
    // A file where the folder should be: mkdir and every write fail, whoever runs the test (root too).
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const counting = countingFetch();
    const licence = licenceFor(cle, { cacheDir: join(blocker, 'cache'), fetch: counting.fetch });
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.map((error) => error.message).join('\n')).not.toContain(cle.replace(/-/g, ''));
    expect(await licence.valide()).toBe(true);
    expect(counting.attempts()).toBe(1);

    await server.close();
    server.clock.advance(DAY);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('grace');
    for (let index = 0; index < 5; index += 1) await licence.valide();
    // One failed attempt, then the back-off, kept in memory since the disk refuses it.
    expect(counting.attempts()).toBe(2);
  });

  it('a public key list with the rotation key first still verifies (key rotation)', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle, { publicKeys: ['K3ABPcGgXefQKOl0HGR2pzQAJN8pOL2YToNDYHeUljc=', TEST_PUBLIC_KEY] });
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
  });

  it('a client that trusts only another key rejects every answer: lapsed, never a refusal', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = licenceFor(cle, { publicKeys: ['K3ABPcGgXefQKOl0HGR2pzQAJN8pOL2YToNDYHeUljc='] });
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({ state: 'lapsed', donnees: { motif: 'reseau' } });
  });

  it('noble and node:crypto give the same verdicts', async () => {
    const cle = await server.issueKey(PRODUIT);
    const node = licenceFor(cle, { crypto: 'node' });
    expect(await node.valide()).toBe(true);
    expect(await node.cryptoName()).toBe('node:crypto');
    const noble = licenceFor(cle, { crypto: 'noble' });
    expect(await noble.valide()).toBe(true);
    expect(await noble.cryptoName()).toBe('noble');
    expect(noble.verdict).toEqual({ ...node.verdict, state: 'fresh' });
  });
});

describe('a site on a www.www. host, against the real server (docs/protocol.md#hosts-in-clients)', () => {
  // Normalising is not idempotent: http://www.www.boutique.fr gives www.boutique.fr, which gives
  // boutique.fr. The client sends the host as configured and expects its normalisation, once.
  const SITE = 'http://www.www.boutique.fr/';
  const SITE_HOTE = 'www.boutique.fr';

  it('binds boutique.fr on the first call, reuses its cache file, and sees a revocation once the cache is due', async () => {
    const cle = await server.issueKey(PRODUIT);
    const sent: unknown[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const licence = licenceFor(cle, { host: SITE, fetch: recording });
    expect(licence.hote).toBe(SITE_HOTE);
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({
      state: 'refreshed',
      runs: true,
      donnees: { ok: true, hote: SITE_HOTE, domaine: 'boutique.fr', produit: PRODUIT },
    });
    expect(sent).toEqual([expect.objectContaining({ url: SITE })]);
    expect(server.calls()).toBe(1);

    const installations = await server.admin('GET', `/admin/products/${PRODUIT}/installations`);
    expect(installations).toMatchObject({
      count: 1,
      keys: [{ status: 'active', domains: [{ domain: 'boutique.fr' }] }],
    });

    // One cache file, named from the normalised host, and read by a second instance (a new process).
    const bare = cle.replace(/-/g, '');
    expect(readdirSync(dir)).toEqual([await cacheFileName(PRODUIT, bare, SITE_HOTE)]);
    server.clock.advance(3600);
    const second = licenceFor(cle, { host: SITE });
    expect(await second.valide()).toBe(true);
    expect(second.verdict?.state).toBe('fresh');
    expect(server.calls()).toBe(1);

    await server.admin('POST', `/admin/keys/${cle}/revoke`, { reason: 'chargeback' });
    server.clock.advance(DAY - 3600);
    expect(await second.valide()).toBe(false);
    expect(second.verdict).toMatchObject({
      state: 'refreshed',
      runs: false,
      donnees: { ok: false, motif: 'revocation', hote: SITE_HOTE, domaine: 'boutique.fr' },
    });
    expect(server.calls()).toBe(2);
    expect(readdirSync(dir)).toEqual([await cacheFileName(PRODUIT, bare, SITE_HOTE)]);
    expect(readRecord(await cacheFile(cle, PRODUIT, SITE_HOTE)).envelope?.donnees.motif).toBe('revocation');
    expect(errors).toEqual([]);
  });
});

function optionsOf(cle: string): LicenceOptions {
  return { ...licenceOptions(server, dir, cle, HOST), clock: server.clock };
}
