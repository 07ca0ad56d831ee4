import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFileName } from '../src/cache-file.js';
import { Licence } from '../src/licence.js';
import { DAY, licenceOptions, PRODUIT, serverAndFolderEachTest } from './end-to-end-setup.js';
import type { LicenceServer } from './licence-server.js';

/**
 * A client clock that disagrees with the service's (server-time.ts): the verdict's intervals are
 * counted on the client's clock from when it arrived (`recu`), so a steady skew changes nothing.
 * Read literally, the rules of docs/protocol.md#states would keep a verdict fresh for as long as
 * the clock is behind, or find every verdict stale on arrival (a call on every valide()) when it is
 * ahead.
 */

const HOST = 'boutique.exemple.fr';

let server: LicenceServer;
let dir: string;
serverAndFolderEachTest('licence-skew-', (setup) => {
  ({ server, dir } = setup);
});

function skewedLicence(cle: string, skewSeconds: number): Licence {
  return new Licence({
    ...licenceOptions(server, dir, cle, HOST),
    clock: { now: () => server.clock.now() + skewSeconds * 1000 },
  });
}

describe('a client clock that is not the service clock', () => {
  it('two years behind: the verdict is asked again after 24 hours, not two years', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = skewedLicence(cle, -730 * DAY);
    await licence.valide();
    const file = join(dir, await cacheFileName(PRODUIT, cle.replace(/-/g, ''), HOST));
    expect((JSON.parse(readFileSync(file, 'utf8')) as { recu: number }).recu).toBe(
      Math.floor(server.clock.now() / 1000) - 730 * DAY,
    );

    server.clock.advance(DAY - 1);
    expect(await skewedLicence(cle, -730 * DAY).valide()).toBe(true);
    expect(server.calls()).toBe(1);
    server.clock.advance(1);
    const next = skewedLicence(cle, -730 * DAY);
    await next.valide();
    expect(next.verdict?.state).toBe('refreshed');
    expect(server.calls()).toBe(2);
  });

  it('forty days ahead: a verdict is fresh for 24 hours (not a call on every valide()), and grace still lasts', async () => {
    const cle = await server.issueKey(PRODUIT);
    const licence = skewedLicence(cle, 40 * DAY);
    await licence.valide();
    for (let index = 0; index < 10; index += 1) await licence.valide();
    expect(await skewedLicence(cle, 40 * DAY).valide()).toBe(true);
    expect(server.calls()).toBe(1);

    // Ten days of outage: on the client's clock the verdict is 50 days old, yet it was received
    // ten days ago: grace, not lapsed.
    await server.close();
    server.clock.advance(10 * DAY);
    const later = skewedLicence(cle, 40 * DAY);
    expect(await later.valide()).toBe(true);
    expect(later.verdict).toMatchObject({ state: 'grace', donnees: { ok: true } });
  });

  it('a clock set back after the verdict arrived: the clock is taken as it is (the literal rule)', async () => {
    const cle = await server.issueKey(PRODUIT);
    await skewedLicence(cle, 0).valide();
    // One hour back: `recu` is in this clock's future, so it is not used.
    const back = skewedLicence(cle, -3600);
    expect(await back.valide()).toBe(true);
    expect(back.verdict?.state).toBe('fresh');
    expect(server.calls()).toBe(1);
  });
});
