import { createHash } from 'node:crypto';
import { normalizeKey, ValidationError, validateProduit, type VerdictDecision } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { admin, createHarness, issue, verdict, verdictRequest } from '../../test/harness.js';
import type { Store, StoredKey } from '../ports/index.js';
import { HttpError } from '../http/index.js';
import { stagingPatterns, toKeyRecord, verdictActivity } from './verdict.js';

/**
 * Every row of docs/protocol.md#verdict, reached through real admin operations on the memory store,
 * each answer signature-checked with core's verifyEnvelope (test/harness.ts `verdict`).
 */

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('the verdict rules (docs/protocol.md#verdict) through the service', () => {
  it('1. no such key: inconnue, domaine ""', async () => {
    const { service, store } = createHarness();
    expect(
      await verdict(service, { cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', url: 'exemple.fr' }, 'exemple.fr'),
    ).toMatchObject({
      ok: false,
      motif: 'inconnue',
      domaine: '',
      essai: false,
      quand: '',
    });
    // Logged with no key id (docs/protocol.md#privacy).
    expect(store.requestLog()).toEqual([
      { at: expect.any(Number), keyId: null, host: 'exemple.fr', ip: '203.0.113.7', outcome: 'inconnue' },
    ]);
  });

  it('2. produit given and the key does not open it: inconnue, even where it is bound', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { produit: 'mon-theme' });
    await issue(service, { produit: 'autre-theme' });
    expect(await verdict(service, { cle, url: 'exemple.fr', produit: 'mon-theme' }, 'exemple.fr')).toMatchObject({
      ok: true,
    });
    expect(await verdict(service, { cle, url: 'exemple.fr', produit: 'autre-theme' }, 'exemple.fr')).toMatchObject({
      ok: false,
      motif: 'inconnue',
      domaine: '',
      produit: 'autre-theme',
    });
  });

  it('2. a dev key opens its author products only', async () => {
    const { service } = createHarness();
    const dev = await issue(service, { produit: 'theme-a', kind: 'dev', author: 'alice' });
    await issue(service, { produit: 'theme-b', author: 'alice' });
    await issue(service, { produit: 'theme-c', author: 'bob' });
    expect(await verdict(service, { cle: dev, url: 'x.fr', produit: 'theme-b' }, 'x.fr')).toMatchObject({
      ok: true,
      essai: true,
    });
    expect(await verdict(service, { cle: dev, url: 'x.fr', produit: 'theme-c' }, 'x.fr')).toMatchObject({
      ok: false,
      motif: 'inconnue',
    });
  });

  it('3. regenerated: the old key answers regeneration with quand and its domains; the new one runs there', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    clock.advance(DAY);
    const { cle: fresh } = await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    if (typeof fresh !== 'string') throw new Error('no key');
    expect(await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr')).toMatchObject({
      ok: false,
      motif: 'regeneration',
      domaine: 'exemple.fr',
      quand: iso(clock.nowMs),
    });
    expect(await verdict(service, { cle: fresh, url: 'www.exemple.fr' }, 'exemple.fr')).toMatchObject({ ok: true });
    // The new key carries the binding: another domain is refused on a one-domain key.
    expect(await verdict(service, { cle: fresh, url: 'autre.fr' }, 'autre.fr')).toMatchObject({
      motif: 'autre_domaine',
    });
  });

  it('3. transferred: the old key answers transfert; the new one runs on the new domain', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'ancien.fr' }, 'ancien.fr');
    clock.advance(DAY);
    const { cle: fresh } = await admin(
      service,
      'POST',
      `/admin/keys/${cle}/transfer`,
      { from: 'ancien.fr', to: 'https://www.nouveau.fr/' },
      201,
    );
    if (typeof fresh !== 'string') throw new Error('no key');
    expect(await verdict(service, { cle, url: 'ancien.fr' }, 'ancien.fr')).toMatchObject({
      ok: false,
      motif: 'transfert',
      domaine: 'ancien.fr',
      quand: iso(clock.nowMs),
    });
    expect(await verdict(service, { cle: fresh, url: 'boutique.nouveau.fr' }, 'boutique.nouveau.fr')).toMatchObject({
      ok: true,
      domaine: 'nouveau.fr',
    });
    expect(await verdict(service, { cle: fresh, url: 'ancien.fr' }, 'ancien.fr')).toMatchObject({
      ok: false,
      motif: 'autre_domaine',
      domaine: 'nouveau.fr',
    });
  });

  it('3. revoked: revocation, also on a test host (docs/protocol.md#test-hosts)', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${cle}/revoke`, { reason: 'chargeback' }, 200);
    for (const url of ['exemple.fr', 'localhost', 'dev.exemple.fr']) {
      expect(await verdict(service, { cle, url }, url)).toMatchObject({
        ok: false,
        motif: 'revocation',
        quand: iso(clock.nowMs),
      });
    }
  });

  it('4. a trial past its end: expiree with quand = the end; ok before', async () => {
    const { service, clock } = createHarness();
    const end = clock.nowMs + 7 * DAY;
    const cle = await issue(service, { kind: 'trial', expire: iso(end) });
    expect(await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr')).toMatchObject({ ok: true });
    clock.nowMs = end - 1000;
    expect(await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr')).toMatchObject({ ok: true });
    clock.nowMs = end;
    expect(await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr')).toMatchObject({
      ok: false,
      motif: 'expiree',
      domaine: 'exemple.fr',
      quand: iso(end),
    });
  });

  it('5. a dev key: ok, essai, on any host, binding nothing', async () => {
    const { service } = createHarness();
    const dev = await issue(service, { kind: 'dev' });
    for (const url of ['a.fr', 'b.fr', 'c.co.uk', 'localhost']) {
      expect(await verdict(service, { cle: dev, url }, url)).toMatchObject({ ok: true, essai: true, motif: '' });
    }
    const shown = await admin(service, 'GET', `/admin/keys/${dev}`, undefined, 200);
    expect(shown.domains).toEqual([]);
  });

  it('6. test and staging hosts: ok, essai, nothing bound', async () => {
    const { service } = createHarness();
    const cle = await issue(service, {});
    const cases: [string, string, string][] = [
      ['localhost:3000', 'localhost', 'localhost'],
      ['http://192.168.1.10/', '192.168.1.10', '192.168.1.10'],
      ['intranet', 'intranet', 'intranet'],
      ['boutique.local', 'boutique.local', 'boutique.local'],
      ['dev.exemple.fr', 'dev.exemple.fr', 'exemple.fr'],
      ['staging.autre.fr', 'staging.autre.fr', 'autre.fr'],
    ];
    for (const [url, hote, domaine] of cases) {
      expect(await verdict(service, { cle, url }, hote)).toMatchObject({ ok: true, essai: true, domaine });
    }
    // No slot was consumed: the one-domain key still binds a real site.
    expect(await verdict(service, { cle, url: 'vrai.fr' }, 'vrai.fr')).toMatchObject({ ok: true, essai: false });
  });

  it('7. already bound: any subdomain runs, and last seen moves on', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    clock.advance(DAY);
    expect(await verdict(service, { cle, url: 'https://boutique.exemple.fr/' }, 'boutique.exemple.fr')).toMatchObject({
      ok: true,
      essai: false,
      domaine: 'exemple.fr',
    });
    const shown = await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200);
    expect(shown.domains).toEqual([
      { domain: 'exemple.fr', firstSeen: iso(clock.nowMs - DAY), lastSeen: iso(clock.nowMs) },
    ]);
  });

  it('7. last seen is kept to the hour: a repeat within the hour writes nothing', async () => {
    const { service, clock, store } = createHarness();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    const bound = clock.nowMs;
    let touches = 0;
    const touchDomain = store.touchDomain.bind(store);
    store.touchDomain = async (...args) => {
      touches += 1;
      return touchDomain(...args);
    };
    clock.advance(3599 * 1000);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    expect(touches).toBe(0);
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({
      domains: [{ lastSeen: iso(bound) }],
    });
    clock.advance(1000);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    expect(touches).toBe(1);
    expect(await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).toMatchObject({
      domains: [{ lastSeen: iso(clock.nowMs) }],
    });
  });

  it('8 and 9. binds up to the allowance, then autre_domaine naming the domains in binding order', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { sites: 2 });
    expect(await verdict(service, { cle, url: 'b.fr' }, 'b.fr')).toMatchObject({ ok: true, domaine: 'b.fr' });
    expect(await verdict(service, { cle, url: 'a.fr' }, 'a.fr')).toMatchObject({ ok: true, domaine: 'a.fr' });
    expect(await verdict(service, { cle, url: 'c.fr' }, 'c.fr')).toMatchObject({
      ok: false,
      motif: 'autre_domaine',
      domaine: 'b.fr, a.fr',
      essai: false,
      quand: '',
    });
  });

  it('keys are looked up normalised: lower case, spaces and missing dashes are fine', async () => {
    const { service } = createHarness();
    const cle = await issue(service, {});
    const messy = ` ${cle.toLowerCase().replace(/-/g, ' ')} `;
    expect(await verdict(service, { cle: messy, url: 'exemple.fr' }, 'exemple.fr')).toMatchObject({ ok: true });
  });

  it('keeps the key id of a known key in the request log, with the host and the client IP (docs/protocol.md#privacy)', async () => {
    const { service, store, clock } = createHarness();
    const cle = await issue(service, {});
    const stored = await store.findKeyByHash(createHash('sha256').update(normalizeKey(cle), 'utf8').digest('hex'));
    if (stored === null) throw new Error('the issued key is not in the store');
    await verdict(service, { cle, url: 'https://www.exemple.fr/boutique' }, 'exemple.fr', { ip: '198.51.100.4' });
    expect(store.requestLog()).toEqual([
      { at: Math.floor(clock.nowMs / 1000), keyId: stored.id, host: 'exemple.fr', ip: '198.51.100.4', outcome: 'ok' },
    ]);
  });

  it('logs each verdict with the hint only, the motif and the host', async () => {
    const { service, logger } = createHarness();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    const normalised = cle.replace(/-/g, '');
    const line = logger.lines.find((entry) => entry.message === 'verdict');
    expect(line?.fields).toEqual({ hint: normalised.slice(-4), ok: true, motif: '', hote: 'exemple.fr' });
    expect(logger.text()).not.toContain(normalised);
    expect(logger.text()).not.toContain(cle);
  });
});

describe('the binding race (docs/protocol.md#verdict: binding is atomic)', () => {
  it('two concurrent first calls from two domains on a one-domain key: exactly one ok', async () => {
    const harness = createHarness();
    const cle = await issue(harness.service, {});
    // Count the real store's binding attempts: both calls read an empty key, both try to bind.
    let binds = 0;
    const counting: Store = {
      ...harness.store,
      bindDomain: (...args) => {
        binds += 1;
        return harness.store.bindDomain(...args);
      },
    };
    const { service } = createHarness({ store: counting });
    const [a, b] = await Promise.all([
      service.handle(verdictRequest({ cle, url: 'premier.fr' }, { ip: '203.0.113.1' })),
      service.handle(verdictRequest({ cle, url: 'second.fr' }, { ip: '203.0.113.2' })),
    ]);
    const verdicts = [a, b].map((response) => {
      expect(response.status).toBe(200);
      const parsed: unknown = JSON.parse(response.body);
      if (typeof parsed !== 'object' || parsed === null || !('donnees' in parsed)) throw new Error('no donnees');
      return parsed.donnees as { ok: boolean; motif: string; domaine: string };
    });
    expect(verdicts.filter((entry) => entry.ok)).toHaveLength(1);
    const loser = verdicts.find((entry) => !entry.ok);
    const winner = verdicts.find((entry) => entry.ok);
    expect(loser).toMatchObject({ motif: 'autre_domaine', domaine: winner?.domaine });
    expect(binds).toBe(2);
    const rows = await harness.store.installations('mon-theme');
    expect(rows[0]?.domains).toHaveLength(1);
  });

  it('many concurrent calls on a three-domain key bind exactly three', async () => {
    const { service, store } = createHarness({ limit: 1000 });
    const cle = await issue(service, { sites: 3 });
    const urls = Array.from({ length: 12 }, (_, i) => `site${i}.fr`);
    const responses = await Promise.all(urls.map((url) => service.handle(verdictRequest({ cle, url }))));
    const oks = responses.filter((response) => JSON.parse(response.body).donnees.ok === true);
    expect(oks).toHaveLength(3);
    const rows = await store.installations('mon-theme');
    expect(rows[0]?.domains).toHaveLength(3);
  });

  it('gives up with a 500 when binding does not settle in two attempts (an inconsistent store)', async () => {
    const harness = createHarness();
    const cle = await issue(harness.service, {});
    const { service } = createHarness({
      store: { ...harness.store, bindDomain: () => Promise.resolve('full' as const) },
    });
    const response = await service.handle(verdictRequest({ cle, url: 'exemple.fr' }));
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('donnees');
  });
});

/** A stored buyer key of product p that also opens q, bound to a.fr. */
const BUYER_KEY: StoredKey = {
  id: '1',
  hash: 'h',
  hint: 'ABCD',
  produit: 'p',
  kind: 'buyer',
  status: 'active',
  sites: 2,
  expiresAt: null,
  endedAt: null,
  reason: null,
  replacedBy: null,
  createdAt: 1,
  products: ['p', 'q'],
  domains: [{ domain: 'a.fr', firstSeen: 1, lastSeen: 2 }],
  lineage: '1',
  endedBy: null,
  staging: [],
};

describe('toKeyRecord', () => {
  const stored = BUYER_KEY;

  it('keeps products and maps bound domains to their names', () => {
    expect(toKeyRecord(stored)).toEqual({
      kind: 'buyer',
      status: 'active',
      endedAt: null,
      expiresAt: null,
      products: ['p', 'q'],
      sites: 2,
      domains: ['a.fr'],
    });
  });

  it('maps no such key to null', () => {
    expect(toKeyRecord(null)).toBeNull();
  });

  it("throws a 500 HttpError, with core's ValidationError as cause, for a record core refuses (docs/protocol.md#binding)", () => {
    let error: unknown;
    try {
      toKeyRecord({ ...stored, status: 'revocation', endedAt: null });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 500,
      detail: 'the stored key record is invalid',
      cause: expect.any(ValidationError),
    });
  });
});

describe('verdictActivity (docs/protocol.md#activity)', () => {
  const stored: StoredKey = { ...BUYER_KEY, kind: 'dev', sites: 0, domains: [] };
  const donnees = { domaine: '', quand: '', emis: 0, revalider: 0, sursis: 0, hote: 'a.fr' };
  const ok = (essai: boolean): VerdictDecision => ({ donnees: { ...donnees, ok: true, motif: '', essai }, bind: null });
  const refused = (motif: string): VerdictDecision => ({
    donnees: { ...donnees, ok: false, motif, essai: false },
    bind: null,
  });
  const asProduit = (value: string) => validateProduit(value);

  it('records ok, essai (ok on a test host) or the motif', () => {
    expect(verdictActivity(ok(false), stored, undefined).outcome).toBe('ok');
    expect(verdictActivity(ok(true), stored, undefined).outcome).toBe('essai');
    expect(verdictActivity(refused('revocation'), stored, undefined).outcome).toBe('revocation');
    expect(verdictActivity(refused('inconnue'), null, undefined)).toEqual({ outcome: 'inconnue', produit: null });
  });

  it("counts it for the requested product when the key opens it, else for the key's own", () => {
    expect(verdictActivity(ok(true), stored, asProduit('q')).produit).toBe('q');
    expect(verdictActivity(refused('inconnue'), stored, asProduit('other')).produit).toBe('p');
    expect(verdictActivity(ok(false), stored, undefined).produit).toBe('p');
    expect(verdictActivity(refused('inconnue'), null, asProduit('q')).produit).toBeNull();
  });

  it('refuses a motif core does not know: a 500, never a count of nonsense', () => {
    expect(() => verdictActivity(refused('nouveau'), stored, undefined)).toThrow(HttpError);
  });
});

describe('staging patterns beyond the built-in ones (docs/protocol.md#staging-hosts)', () => {
  it("adds the key's own product's patterns to the operator's; an unknown key has the operator's only", () => {
    const context = { stagingHosts: ['*.recette.exemple.fr'] };
    expect(stagingPatterns(context, { ...BUYER_KEY, staging: ['preview-*.a.fr'] })).toEqual([
      '*.recette.exemple.fr',
      'preview-*.a.fr',
    ]);
    expect(stagingPatterns(context, null)).toEqual(['*.recette.exemple.fr']);
    expect(stagingPatterns({}, { ...BUYER_KEY, staging: [] })).toEqual([]);
  });

  it("the operator's (stagingHosts): ok, essai, nothing bound, for every product's keys", async () => {
    const { service } = createHarness({ stagingHosts: ['*.Recette.Exemple.fr.'] });
    const cle = await issue(service, {});
    expect(
      await verdict(service, { cle, url: 'https://v2.recette.exemple.fr/' }, 'v2.recette.exemple.fr'),
    ).toMatchObject({ ok: true, essai: true, domaine: 'exemple.fr' });
    expect((await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).domains).toEqual([]);
    // A host that merely holds the text is a real site: it takes the key's one slot.
    expect(
      await verdict(service, { cle, url: 'v2.recette.exemple.fr.evil.fr' }, 'v2.recette.exemple.fr.evil.fr'),
    ).toMatchObject({ ok: true, essai: false, domaine: 'evil.fr' });
  });

  it("a product's own (PATCH /admin/products/:id): its keys only, from the next verdict on", async () => {
    const { service } = createHarness();
    const cle = await issue(service, { produit: 'theme' });
    const other = await issue(service, { produit: 'plugin', sites: 2 });
    await admin(service, 'PATCH', '/admin/products/theme', { staging: ['preview-*.boutique.fr'] }, 200);
    expect(await verdict(service, { cle, url: 'preview-7.boutique.fr' }, 'preview-7.boutique.fr')).toMatchObject({
      ok: true,
      essai: true,
      domaine: 'boutique.fr',
    });
    expect((await admin(service, 'GET', `/admin/keys/${cle}`, undefined, 200)).domains).toEqual([]);
    // Another product's key binds the same host: the pattern is not its product's.
    expect(await verdict(service, { cle: other, url: 'preview-7.boutique.fr' }, 'preview-7.boutique.fr')).toMatchObject(
      { ok: true, essai: false, domaine: 'boutique.fr' },
    );
    // Cleared: the host binds like any other.
    await admin(service, 'PATCH', '/admin/products/theme', { staging: [] }, 200);
    expect(await verdict(service, { cle, url: 'preview-7.boutique.fr' }, 'preview-7.boutique.fr')).toMatchObject({
      ok: true,
      essai: false,
      domaine: 'boutique.fr',
    });
  });
});
