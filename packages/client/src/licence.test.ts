import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNobleSigner, decodeBase64, isValidationError, parseHost, signDonnees } from '@licence/core';
import type { Donnees } from '@licence/core';
import { loadSignatureVectors } from '@licence/vectors';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeService } from '../test/fake-service.js';
import type { FakeAnswer, FakeService, ReceivedRequest } from '../test/fake-service.js';
import { Licence } from './licence.js';
import type { LicenceOptions } from './licence-options.js';

/**
 * The Licence class on its own, against a small signing service on loopback (the TEST ONLY seed
 * of @licence/vectors): the end-to-end scenarios run against the real server in test/.
 */

const keys = loadSignatureVectors().keys;
const signer = createNobleSigner(decodeBase64(keys.primary.seed, 'seed', 32));
const NOW = 1_767_225_600;
const CLE = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';

/** Answers like the service: a signed ok verdict naming the request's host normalised once, its product and nonce. */
function signedAnswer(request: ReceivedRequest, fields: Partial<Donnees> = {}): FakeAnswer {
  const body = JSON.parse(request.body) as { url: string; produit: string; nonce: string };
  const donnees: Donnees = {
    ok: true,
    motif: '',
    domaine: 'exemple.fr',
    essai: false,
    quand: '',
    emis: NOW,
    revalider: NOW + 86_400,
    sursis: 2_592_000,
    hote: parseHost(body.url).hote,
    produit: body.produit,
    nonce: body.nonce,
    ...fields,
  };
  return { status: 200, body: JSON.stringify(signDonnees(donnees, signer)) };
}

let service: FakeService;
let dir: string;
beforeAll(async () => {
  service = await startFakeService();
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-class-'));
  service.answer((request) => signedAnswer(request));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const options = (overrides: Partial<LicenceOptions> = {}): LicenceOptions => ({
  cle: CLE,
  cacheDir: dir,
  produit: 'mon-theme',
  publicKeys: [keys.primary.publicKey],
  url: service.url,
  host: 'boutique.exemple.fr',
  clock: { now: () => NOW * 1000 },
  ...overrides,
});

describe('Licence', () => {
  it('has no verdict before valide(): essai() and message() say so', () => {
    const licence = new Licence(options());
    expect(licence.verdict).toBeNull();
    expect(licence.hote).toBe('boutique.exemple.fr');
    expect(() => licence.essai()).toThrow('essai(): no verdict yet; await licence.valide() first');
    expect(() => licence.message()).toThrow('message(): no verdict yet; await licence.valide() first');
  });

  it('sends the normalised key, the host as configured, its product and a fresh nonce each call', async () => {
    const before = service.requests.length;
    await new Licence(options({ host: 'https://www.Boutique.Exemple.fr:8443/x' })).valide();
    rmSync(join(dir), { recursive: true, force: true });
    await new Licence(options()).valide();
    const bodies = service.requests.slice(before).map((request) => JSON.parse(request.body) as Record<string, string>);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({
      cle: 'ABCDEFGHJKMNPQRSTVWXYZ012',
      url: 'https://www.Boutique.Exemple.fr:8443/x',
      produit: 'mon-theme',
    });
    expect(Object.keys(bodies[0] ?? {}).sort()).toEqual(['cle', 'nonce', 'produit', 'url']);
    expect(bodies[0]?.nonce).not.toBe(bodies[1]?.nonce);
  });

  it('a www.www. host: sent as configured, and only an answer naming its normalisation once is taken', async () => {
    // docs/protocol.md#hosts-in-clients: www.www.boutique.fr gives www.boutique.fr, which gives
    // boutique.fr; the service normalises what it receives, once.
    const host = ' http://WWW.www.boutique.fr:8080/boutique?x=1 ';
    const before = service.requests.length;
    const licence = new Licence(options({ host }));
    expect(licence.hote).toBe('www.boutique.fr');
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict).toMatchObject({ state: 'refreshed', donnees: { hote: 'www.boutique.fr' } });
    expect(JSON.parse(service.requests[before]?.body ?? '{}')).toMatchObject({ url: host });

    // What a client that sent its hote would get back: boutique.fr, another host, a failed call.
    rmSync(dir, { recursive: true, force: true });
    service.answer((request) => signedAnswer(request, { hote: 'boutique.fr' }));
    const twice = new Licence(options({ host, onError: () => undefined }));
    expect(await twice.valide()).toBe(true);
    expect(twice.verdict).toMatchObject({ state: 'lapsed', donnees: { motif: 'reseau', hote: 'www.boutique.fr' } });
  });

  it('answers once checked from memory: the file is not read again while the verdict is fresh', async () => {
    const licence = new Licence(options());
    expect(await licence.valide()).toBe(true);
    // Garbage in place of the file: a fresh verdict already accepted in this process stands.
    writeFileSync(join(dir, readdirSync(dir)[0] ?? ''), 'garbage');
    const before = service.requests.length;
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('fresh');
    expect(service.requests.length).toBe(before);
    // A new instance (a new process) reads the file, finds garbage, and calls.
    await new Licence(options()).valide();
    expect(service.requests.length).toBe(before + 1);
  });

  it('returns the same verdict object while nothing changes', async () => {
    const licence = new Licence(options());
    await licence.valide();
    await licence.valide();
    const fresh = licence.verdict;
    await licence.valide();
    expect(licence.verdict).toBe(fresh);
  });

  it('checks message() languages', async () => {
    const licence = new Licence(options());
    await licence.valide();
    expect(licence.message()).toBe('Licence valide pour exemple.fr.');
    expect(() => licence.message('de' as 'fr')).toThrow('message: expected "fr" or "en", got "de"');
  });

  it('refuses a clock that does not give milliseconds, as the programming error it is', async () => {
    const licence = new Licence(options({ clock: { now: () => Number.NaN } }));
    const error: unknown = await licence.valide().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({
      field: 'clock',
      message: 'clock: now() must return milliseconds since the epoch, got NaN',
    });
  });

  it('goes on when onError itself throws', async () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    const licence = new Licence(
      options({
        cacheDir: join(blocker, 'cache'),
        onError: () => {
          throw new Error('logger down');
        },
      }),
    );
    expect(await licence.valide()).toBe(true);
    expect(licence.verdict?.state).toBe('refreshed');
  });

  it('reports a cache fault through onError by default to console.warn, with no key in it', async () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      await new Licence(options({ cacheDir: join(blocker, 'cache') })).valide();
    } finally {
      console.warn = original;
    }
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]).toMatch(/^@licence\/client: ENOTDIR/);
    expect(warnings.join('\n')).not.toContain('ABCDEFGHJKMNPQRSTVWXYZ012');
  });

  it('uses node:crypto here unless told noble', async () => {
    expect(await new Licence(options()).cryptoName()).toBe('node:crypto');
    expect(await new Licence(options({ crypto: 'noble' })).cryptoName()).toBe('noble');
  });
});

describe('Licence with no usable key (docs/protocol.md#no-usable-key)', () => {
  it.each([
    ['never saved', undefined, 'sans_cle'],
    ['cleared', '', 'sans_cle'],
    ['not a key', '1234-5678', 'cle_invalide'],
  ])(
    '%s: constructs, answers false without a call or a file, reports once without the key',
    async (_name, cle, motif) => {
      const cacheDir = join(dir, 'not-yet');
      const errors: Error[] = [];
      const licence = new Licence(options({ cle, cacheDir, onError: (error) => errors.push(error) }));
      const before = service.requests.length;
      expect(await licence.valide()).toBe(false);
      expect(await licence.valide()).toBe(false);
      expect(service.requests.length).toBe(before);
      // Not even the folder is made: nothing of the cache is touched.
      expect(readdirSync(dir)).toEqual([]);
      expect(licence.verdict).toMatchObject({ state: 'no_key', runs: false, donnees: { ok: false, motif } });
      expect(licence.essai()).toBe(false);
      expect(errors.map((error) => error.message)).toHaveLength(1);
      expect(errors[0]?.message).toMatch(/^cle: /);
      expect(errors[0]?.message).not.toContain('1234');
    },
  );

  it('asks for the key, or says what was entered is none, in French and in English', async () => {
    const none = new Licence(options({ cle: null, onError: () => undefined }));
    await none.valide();
    expect(none.message()).toBe(
      "Aucune clé de licence n'est saisie : entrez la clé reçue à l'achat dans les réglages du produit.",
    );
    expect(none.message('en')).toBe(
      "No licence key has been entered: enter the key you received with your purchase in the product's settings.",
    );
    const wrong = new Licence(options({ cle: '----', onError: () => undefined }));
    await wrong.valide();
    expect(wrong.message('en')).toMatch(/^The key entered is not a licence key: /);
  });

  it('still throws at construction for a bad product id or public key', () => {
    expect(() => new Licence(options({ cle: '', produit: 'Mon Thème' }))).toThrow(/^produit: /);
    expect(() => new Licence(options({ cle: '', publicKeys: ['not base64!'] }))).toThrow(/^publicKeys\[0\]: /);
  });
});
