/**
 * `pnpm bench` in packages/client: what `valide()` costs.
 * - once checked: the verdict is fresh and this process has already accepted it; `valide()`
 *   answers from memory, with no disk read and no signature check. Target: under 20 µs a call.
 * - first check: a new Licence on a fresh cache file: the file is read and parsed, its signature
 *   verified (the memo of checks emptied each time), and the verdict used. What a new process, or
 *   a product that builds one Licence per request, pays once per cache content.
 * Each with node:crypto and with noble. `mean` is in milliseconds: 0.001 ms is 1 µs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNobleSigner, decodeBase64, signDonnees } from '@licence/core';
import { loadSignatureVectors } from '@licence/vectors';
import { afterAll, bench, describe } from 'vitest';
import { cacheFileName } from '../src/cache-file.js';
import { Licence } from '../src/licence.js';
import type { LicenceOptions } from '../src/licence-options.js';
import { forgetVerified } from '../src/signature-verifier.js';
import { positiveVerdict } from '../test/positive-verdict.js';

const keys = loadSignatureVectors().keys;
const signer = createNobleSigner(decodeBase64(keys.primary.seed, 'seed', 32)); // TEST ONLY seed
const NOW = 1_767_225_600;
const CLE = 'ABCDEFGHJKMNPQRSTVWXYZ012';
const dir = mkdtempSync(join(tmpdir(), 'licence-bench-'));
// Generated data is not left behind.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A fresh verdict on disk, as a first call leaves it.
const envelope = signDonnees(
  positiveVerdict(NOW, { hote: 'boutique.exemple.fr', produit: 'mon-theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' }),
  signer,
);
writeFileSync(
  join(dir, await cacheFileName('mon-theme', CLE, 'boutique.exemple.fr')),
  JSON.stringify({ envelope, failures: 0, retryAt: 0, recu: NOW }),
  { mode: 0o600 },
);

const options = (crypto: 'node' | 'noble'): LicenceOptions => ({
  cle: CLE,
  cacheDir: dir,
  produit: 'mon-theme',
  publicKeys: [keys.primary.publicKey],
  // Never called: the verdict is fresh. A closed port, so a mistake would show as lapsed, not hang.
  url: 'http://127.0.0.1:9',
  host: 'boutique.exemple.fr',
  clock: { now: () => (NOW + 60) * 1000 },
  crypto,
});

async function checked(crypto: 'node' | 'noble'): Promise<Licence> {
  const licence = new Licence(options(crypto));
  if (!(await licence.valide()) || licence.verdict?.state !== 'fresh') throw new Error('the bench cache must be fresh');
  if ((await licence.cryptoName()) !== (crypto === 'node' ? 'node:crypto' : 'noble'))
    throw new Error(`${crypto} is not in use`);
  return licence;
}

const withNode = await checked('node');
const withNoble = await checked('noble');

describe('valide() once checked (fresh cache, verdict accepted in this process; target < 20 µs)', () => {
  bench('node:crypto', async () => {
    await withNode.valide();
  });
  bench('noble', async () => {
    await withNoble.valide();
  });
});

describe('first check (new Licence: read the cache file, verify its signature, use it)', () => {
  bench('node:crypto', async () => {
    forgetVerified();
    const licence = new Licence(options('node'));
    if (!(await licence.valide())) throw new Error('not valid');
  });
  bench('noble', async () => {
    forgetVerified();
    const licence = new Licence(options('noble'));
    if (!(await licence.valide())) throw new Error('not valid');
  });
});
