import { loadVerdictVectors, type VerdictCase } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyRecord, VALID_KEY } from '../test/key-record-support.js';
import { expectValidationError } from '../test/validation-error-support.js';
import {
  checkVerdictSettings,
  decideVerdict,
  DEFAULT_VERDICT_SETTINGS,
  type VerdictRequest,
  type VerdictSettings,
} from './decide-verdict.js';
import { MOTIFS } from './donnees.js';
import { type KeyRecord, parseKeyRecord } from './key-record.js';
import { type HostInfo, parseHost } from './parse-host.js';
import { validateNonce, validateProduit } from './request-fields.js';

const vectors = loadVerdictVectors();

/**
 * The request a vector describes, through the parsers that hand decideVerdict its input. A case's
 * host is what parseHost makes of its `hote` (the file's notes say so): checked here.
 */
function requestOf(c: VerdictCase): VerdictRequest {
  const host = parseHost(c.host.hote);
  expect(host, c.name).toEqual(c.host);
  return {
    key: parseKeyRecord(c.key),
    host,
    produit: validateProduit(c.produit),
    nonce: validateNonce(c.nonce),
    now: c.now,
    settings: c.settings,
  };
}

describe('verdicts.json', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // toStrictEqual: a `produit` or `nonce` key that should be absent fails even when undefined.
    expect(decideVerdict(requestOf(c))).toStrictEqual({ donnees: c.donnees, bind: c.bind });
  });
});

// These read the data only (not the code): they keep the file covering what
// docs/protocol.md#verdict asks and keep each case's `rule` label consistent with its expected
// answer.
describe('verdicts.json covers docs/protocol.md#verdict', () => {
  const cases = vectors.cases;

  it('holds at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it('answers through every one of the nine rules', () => {
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  });

  it('produces every motif the service can (all but the client-side reseau), and ok', () => {
    const motifs = new Set(cases.map((c) => c.donnees.motif));
    expect(motifs).toEqual(new Set(['', ...MOTIFS.filter((motif) => motif !== 'reseau')]));
  });

  it('echoes produit and nonce on positive verdicts and on refusals', () => {
    const echoed = cases.filter((c) => c.produit !== undefined && c.nonce !== undefined);
    expect(echoed.some((c) => c.donnees.ok)).toBe(true);
    expect(echoed.some((c) => !c.donnees.ok && c.donnees.motif === 'inconnue')).toBe(true);
    expect(echoed.some((c) => !c.donnees.ok && c.donnees.motif !== 'inconnue')).toBe(true);
    for (const c of cases) {
      expect('produit' in c.donnees, c.name).toBe(c.produit !== undefined);
      expect('nonce' in c.donnees, c.name).toBe(c.nonce !== undefined);
      if (c.produit !== undefined) expect(c.donnees.produit, c.name).toBe(c.produit);
      if (c.nonce !== undefined) expect(c.donnees.nonce, c.name).toBe(c.nonce);
    }
  });

  it('labels each case with the rule its answer shows', () => {
    for (const c of cases) {
      const d = c.donnees;
      const okAs = (essai: boolean) => d.ok && d.motif === '' && d.essai === essai && d.quand === '';
      const expected: Record<number, boolean> = {
        1: c.key === null && d.motif === 'inconnue' && d.domaine === '',
        2:
          c.key !== null &&
          c.produit !== undefined &&
          !c.key.products.includes(c.produit) &&
          d.motif === 'inconnue' &&
          d.domaine === '' &&
          d.quand === '',
        3: c.key !== null && c.key.status !== 'active' && d.motif === c.key.status && d.quand !== '',
        4: c.key?.kind === 'trial' && d.motif === 'expiree' && d.quand !== '',
        5: c.key?.kind === 'dev' && okAs(true),
        6: c.host.test && okAs(true),
        7: okAs(false) && c.bind === null,
        8: okAs(false) && c.bind === c.host.registrable,
        9: d.motif === 'autre_domaine' && d.quand === '',
      };
      expect(expected[c.rule], c.name).toBe(true);
      expect(c.bind !== null, c.name).toBe(c.rule === 8);
      expect(d.emis, c.name).toBe(c.now);
      expect(d.hote, c.name).toBe(c.host.hote);
    }
  });
});

describe('DEFAULT_VERDICT_SETTINGS', () => {
  it('revalidates after 24 hours and keeps a verdict 30 days (docs/protocol.md#verdict, #limits)', () => {
    expect(DEFAULT_VERDICT_SETTINGS).toEqual({ revalidateAfter: 24 * 60 * 60, grace: 30 * 24 * 60 * 60 });
    expect(Object.isFrozen(DEFAULT_VERDICT_SETTINGS)).toBe(true);
  });

  it('applies when settings are absent or explicitly undefined', () => {
    const { donnees } = decideVerdict({ key: null, host: parseHost('exemple.fr'), now: 1000, settings: undefined });
    expect(donnees.revalider).toBe(1000 + 86400);
    expect(donnees.sursis).toBe(2592000);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated requests: what must hold whatever the rule that answers.

// Real hosts with a registrable domain (an IP address is its own), then test hosts with and without
// one.
const HOSTS: readonly HostInfo[] = [
  'exemple.fr',
  'shop.exemple.fr',
  'autre.fr',
  'galerie.fr',
  '203.0.113.7',
  'localhost',
  '10.0.0.5',
  'staging.exemple.fr',
  'boutique.test',
].map((hote) => parseHost(hote));
const DOMAINS = ['exemple.fr', 'autre.fr', 'galerie.fr', '203.0.113.7', 'atelier.com'];
const PRODUCTS = ['galerie-pro', 'diaporama', 'formulaires'];
const seconds = fc.integer({ min: 0, max: 4_102_444_800 });

const keyRecords: fc.Arbitrary<KeyRecord> = fc
  .record({
    kind: fc.constantFrom('buyer', 'trial', 'dev'),
    status: fc.constantFrom('active', 'transfert', 'regeneration', 'revocation'),
    ended: seconds,
    expires: seconds,
    products: fc.subarray(PRODUCTS),
    sites: fc.integer({ min: 0, max: 4 }),
    domains: fc.shuffledSubarray(DOMAINS),
  })
  .map(({ kind, status, ended, expires, products, sites, domains }) =>
    keyRecord({
      kind,
      status,
      endedAt: status === 'active' ? null : ended,
      expiresAt: kind === 'trial' ? expires : null,
      products,
      sites,
      domains,
    }),
  );

const request: fc.Arbitrary<VerdictRequest> = fc
  .record({
    key: fc.option(keyRecords, { nil: null }),
    host: fc.constantFrom(...HOSTS),
    produit: fc.option(fc.constantFrom(...PRODUCTS), { nil: undefined }).map(validateProduit),
    nonce: fc
      .option(fc.constantFrom('q3V9_xYk-2LmT8pR4sWz1A', 'AAAAAAAAAAAAAAAA'), { nil: undefined })
      .map(validateNonce),
    now: seconds,
    settings: fc.option(
      fc.record({
        revalidateAfter: fc.integer({ min: 1, max: 10 ** 7 }),
        grace: fc.integer({ min: 1, max: 10 ** 8 }),
      }),
      { nil: undefined },
    ),
  })
  .map(({ key, host, produit, nonce, now, settings }) => ({
    key,
    host,
    now,
    ...(produit === undefined ? {} : { produit }),
    ...(nonce === undefined ? {} : { nonce }),
    ...(settings === undefined ? {} : { settings }),
  }));

const SPEC_FIELDS = ['domaine', 'emis', 'essai', 'hote', 'motif', 'ok', 'quand', 'revalider', 'sursis'];

describe('decideVerdict properties', () => {
  it('fills the fields every verdict shares from the request', () => {
    fc.assert(
      fc.property(request, (r) => {
        const { donnees } = decideVerdict(r);
        const settings: VerdictSettings = r.settings ?? { revalidateAfter: 86400, grace: 2592000 };
        expect(donnees.emis).toBe(r.now);
        expect(donnees.revalider).toBe(r.now + settings.revalidateAfter);
        expect(donnees.sursis).toBe(settings.grace);
        expect(donnees.hote).toBe(r.host.hote);
        const fields = [...SPEC_FIELDS];
        if (r.produit !== undefined) fields.push('produit');
        if (r.nonce !== undefined) fields.push('nonce');
        expect(Object.keys(donnees).sort()).toEqual(fields.sort());
        if (r.produit !== undefined) expect(donnees.produit).toBe(r.produit);
        if (r.nonce !== undefined) expect(donnees.nonce).toBe(r.nonce);
      }),
    );
  });

  it('keeps ok, motif, essai, quand and bind consistent', () => {
    fc.assert(
      fc.property(request, (r) => {
        const { donnees, bind } = decideVerdict(r);
        expect(donnees.motif === '').toBe(donnees.ok);
        if (!donnees.ok) {
          expect(MOTIFS).toContain(donnees.motif);
          expect(donnees.motif).not.toBe('reseau');
          expect(donnees.essai).toBe(false);
          expect(bind).toBeNull();
          const dated = ['transfert', 'regeneration', 'revocation', 'expiree'].includes(donnees.motif);
          expect(donnees.quand === '').toBe(!dated);
          const expectedDomaine = donnees.motif === 'inconnue' ? '' : (r.key?.domains ?? []).join(', ');
          expect(donnees.domaine).toBe(expectedDomaine);
        } else {
          expect(donnees.quand).toBe('');
          expect(donnees.domaine).toBe(r.host.registrable ?? r.host.hote);
          expect(r.key).not.toBeNull();
        }
        if (bind !== null) {
          // Only rule 8 binds: a live buyer or trial key, a real host, a free slot.
          expect(donnees.ok && !donnees.essai).toBe(true);
          expect(r.host.test).toBe(false);
          expect(bind).toBe(r.host.registrable);
          expect(r.key?.kind).not.toBe('dev');
          expect(r.key?.domains).not.toContain(bind);
          expect(r.key?.domains.length).toBeLessThan(r.key?.sites ?? 0);
        }
      }),
    );
  });

  it('answers ok without binding once the store has bound what it was told to', () => {
    fc.assert(
      fc.property(request, (r) => {
        const first = decideVerdict(r);
        if (first.bind === null || r.key === null) return;
        const again = decideVerdict({ ...r, key: keyRecord({ ...r.key, domains: [...r.key.domains, first.bind] }) });
        expect(again).toStrictEqual({ donnees: first.donnees, bind: null });
      }),
    );
  });

  it('answers inconnue with domaine empty for a missing key, whatever else the request holds', () => {
    fc.assert(
      fc.property(request, (r) => {
        const { donnees } = decideVerdict({ ...r, key: null });
        expect(donnees.ok).toBe(false);
        expect(donnees.motif).toBe('inconnue');
        expect(donnees.domaine).toBe('');
      }),
    );
  });

  it('neither mutates its input nor depends on anything but it', () => {
    fc.assert(
      fc.property(request, (r) => {
        const before = structuredClone(r);
        const first = decideVerdict(deepFreeze(structuredClone(r)));
        expect(decideVerdict(r)).toStrictEqual(first);
        expect(structuredClone(r)).toStrictEqual(before);
      }),
    );
  });

  it('lets exactly one of two first calls from two domains bind a one-domain key', () => {
    // docs/protocol.md#verdict: the store binds atomically; the loser is decided again with the
    // fresh record.
    const key = keyRecord({ ...VALID_KEY, domains: [] });
    const a = parseHost('exemple.fr');
    const b = parseHost('autre.fr');
    expect(decideVerdict({ key, host: a, now: 1 }).bind).toBe('exemple.fr');
    expect(decideVerdict({ key, host: b, now: 1 }).bind).toBe('autre.fr');
    const fresh = keyRecord({ ...VALID_KEY, domains: ['exemple.fr'] });
    const loser = decideVerdict({ key: fresh, host: b, now: 1 });
    expect(loser.bind).toBeNull();
    expect(loser.donnees).toMatchObject({ ok: false, motif: 'autre_domaine', domaine: 'exemple.fr' });
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// The checks decideVerdict keeps, on the time and the settings that no parser hands it: exact
// messages and the field at fault. The key, host, produit and nonce are checked by their parsers
// (key-record.test.ts, parse-host.test.ts, request-fields.test.ts).

const VALID: VerdictRequest = { key: keyRecord(VALID_KEY), host: parseHost('exemple.fr'), now: 1795342440 };

/** Calls decideVerdict with a time or settings a JavaScript caller could hand it, typed or not. */
function decideUnknown(input: unknown) {
  return decideVerdict(input as VerdictRequest);
}

const { now: _now, ...withoutNow } = VALID;

describe('decideVerdict input checks', () => {
  it('accepts the base request used below', () => {
    expect(decideUnknown(VALID).donnees.ok).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['no now', withoutNow, 'now: expected a number, got undefined'],
    ['now as a string', { ...VALID, now: '1795342440' }, 'now: expected a number, got string'],
    ['a negative now', { ...VALID, now: -1 }, 'now: expected an integer from 0 to 9007199254654591, got -1'],
    ['a fractional now', { ...VALID, now: 1.5 }, 'now: expected an integer from 0 to 9007199254654591, got 1.5'],
    ['a NaN now', { ...VALID, now: Number.NaN }, 'now: expected an integer from 0 to 9007199254654591, got NaN'],
    // revalider = now + 86400 must stay a safe integer.
    [
      'a now too large for revalider',
      { ...VALID, now: Number.MAX_SAFE_INTEGER },
      'now: expected an integer from 0 to 9007199254654591, got 9007199254740991',
    ],
    [
      'a now too large for a custom revalidateAfter',
      { ...VALID, now: Number.MAX_SAFE_INTEGER - 9, settings: { revalidateAfter: 10, grace: 1 } },
      'now: expected an integer from 0 to 9007199254740981, got 9007199254740982',
    ],

    [
      'a zero revalidateAfter',
      { ...VALID, settings: { revalidateAfter: 0, grace: 1 } },
      'settings.revalidateAfter: expected an integer from 1 to 9007199254740991, got 0',
    ],
    [
      'revalidateAfter as a string',
      { ...VALID, settings: { revalidateAfter: '3600', grace: 1 } },
      'settings.revalidateAfter: expected a number, got string',
    ],
    ['no grace', { ...VALID, settings: { revalidateAfter: 3600 } }, 'settings.grace: expected a number, got undefined'],
    [
      'a negative grace',
      { ...VALID, settings: { revalidateAfter: 3600, grace: -5 } },
      'settings.grace: expected an integer from 1 to 9007199254740991, got -5',
    ],
    [
      'a fractional grace',
      { ...VALID, settings: { revalidateAfter: 3600, grace: 0.5 } },
      'settings.grace: expected an integer from 1 to 9007199254740991, got 0.5',
    ],
  ])('refuses %s', (_what, input, message) => {
    // Every message opens with the field it names (`settings.grace: expected ...`).
    expectValidationError(() => decideUnknown(input), message.slice(0, message.indexOf(':')), message);
  });

  it('accepts the largest now the settings allow, and times up to year 9999', () => {
    const latest = decideVerdict({ ...VALID, now: Number.MAX_SAFE_INTEGER - 86400 });
    expect(latest.donnees.revalider).toBe(Number.MAX_SAFE_INTEGER);
    const ended = decideVerdict({
      ...VALID,
      key: keyRecord({ ...VALID_KEY, status: 'revocation', endedAt: 253402300799 }),
    });
    expect(ended.donnees.quand).toBe('9999-12-31T23:59:59Z');
  });

  it('ignores fields it does not know', () => {
    const decided = decideUnknown({ ...VALID, extra: 1 });
    expect(decided.donnees.ok).toBe(true);
    expect(Object.keys(decided.donnees).sort()).toEqual([...SPEC_FIELDS].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// Rule 6 with the operator's and the product's staging patterns (docs/protocol.md#staging-hosts).

describe('decideVerdict: staging patterns', () => {
  const host = parseHost('boutique.recette.agence.fr');
  const staging = ['*.recette.agence.fr'];
  const base = { host, now: 1_700_000_000 };
  const free = keyRecord({ ...VALID_KEY, sites: 2 });
  const full = keyRecord({ ...VALID_KEY, domains: ['exemple.fr'], sites: 1 });

  it('binds a free slot for a matching host when no pattern is given', () => {
    expect(host.test).toBe(false);
    for (const none of [{}, { staging: undefined }, { staging: [] }]) {
      const { donnees, bind } = decideVerdict({ ...base, key: free, ...none });
      expect({ ok: donnees.ok, essai: donnees.essai, bind }).toEqual({ ok: true, essai: false, bind: 'agence.fr' });
    }
  });

  it('answers ok, essai true and binds nothing for a host that matches one of the patterns', () => {
    for (const key of [free, full]) {
      const { donnees, bind } = decideVerdict({ ...base, key, staging });
      expect(bind).toBeNull();
      expect(donnees).toMatchObject({ ok: true, motif: '', essai: true, domaine: 'agence.fr', quand: '' });
    }
  });

  it('leaves a host that matches none of the patterns to rules 7 to 9', () => {
    const { donnees, bind } = decideVerdict({ ...base, key: full, staging: ['*.preprod.agence.fr', 'autre.fr'] });
    expect(bind).toBeNull();
    expect(donnees).toMatchObject({ ok: false, motif: 'autre_domaine', domaine: 'exemple.fr' });
  });

  it('still answers the refusals of rules 1 to 4 first', () => {
    const revoked = keyRecord({ ...VALID_KEY, status: 'revocation', endedAt: 1_600_000_000 });
    const ended = keyRecord({ ...VALID_KEY, kind: 'trial', expiresAt: 1_600_000_000 });
    expect(decideVerdict({ ...base, key: null, staging }).donnees.motif).toBe('inconnue');
    expect(decideVerdict({ ...base, key: free, produit: validateProduit('diaporama'), staging }).donnees.motif).toBe(
      'inconnue',
    );
    expect(decideVerdict({ ...base, key: revoked, staging }).donnees.motif).toBe('revocation');
    expect(decideVerdict({ ...base, key: ended, staging }).donnees.motif).toBe('expiree');
  });

  it('takes a host that matches a built-in pattern as a test host, with no pattern handed in', () => {
    const builtin = parseHost('https://monsite.kinsta.cloud/');
    expect(builtin).toEqual({ hote: 'monsite.kinsta.cloud', registrable: 'kinsta.cloud', test: true });
    const { donnees, bind } = decideVerdict({ key: full, host: builtin, now: 1_700_000_000 });
    expect(bind).toBeNull();
    expect(donnees).toMatchObject({ ok: true, essai: true, domaine: 'kinsta.cloud' });
  });
});

// ---------------------------------------------------------------------------------------------
// Settings checked once (the service checks its own when it is created, docs/protocol.md#verdict):
// the same rule and messages as decideVerdict's own check, which then takes them as they are.

describe('checkVerdictSettings', () => {
  it('gives the defaults when absent, else a frozen copy decideVerdict answers with alike', () => {
    expect(checkVerdictSettings(undefined)).toBe(DEFAULT_VERDICT_SETTINGS);
    const given = { revalidateAfter: 3600, grace: 604800 };
    const checked = checkVerdictSettings(given);
    expect(checked).toEqual(given);
    expect(checked).not.toBe(given);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(decideVerdict({ ...VALID, settings: checked })).toStrictEqual(decideVerdict({ ...VALID, settings: given }));
    expect(decideVerdict({ ...VALID, settings: checked }).donnees).toMatchObject({
      revalider: VALID.now + 3600,
      sursis: 604800,
    });
  });

  it('keeps only the two settings: a later change to what was given changes nothing', () => {
    const given = { revalidateAfter: 3600, grace: 604800, extra: 1 };
    const checked = checkVerdictSettings(given);
    given.revalidateAfter = 0;
    expect(checked).toEqual({ revalidateAfter: 3600, grace: 604800 });
    expect(decideVerdict({ ...VALID, settings: checked }).donnees.revalider).toBe(VALID.now + 3600);
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'settings: expected an object, got null'],
    ['a number', 3600, 'settings: expected an object, got number'],
    [
      'a zero revalidateAfter',
      { revalidateAfter: 0, grace: 1 },
      'settings.revalidateAfter: expected an integer from 1 to 9007199254740991, got 0',
    ],
    ['no grace', { revalidateAfter: 3600 }, 'settings.grace: expected a number, got undefined'],
    [
      'a fractional grace',
      { revalidateAfter: 3600, grace: 0.5 },
      'settings.grace: expected an integer from 1 to 9007199254740991, got 0.5',
    ],
  ])('refuses %s, as decideVerdict refuses it', (_what, value, message) => {
    expectValidationError(() => checkVerdictSettings(value), message.slice(0, message.indexOf(':')), message);
  });

  it('still checks settings that were not checked before, on every call', () => {
    const unchecked = { revalidateAfter: 3600, grace: 604800 };
    expect(decideVerdict({ ...VALID, settings: unchecked }).donnees.sursis).toBe(604800);
    unchecked.grace = 0;
    expectValidationError(
      () => decideVerdict({ ...VALID, settings: unchecked }),
      'settings.grace',
      'settings.grace: expected an integer from 1 to 9007199254740991, got 0',
    );
  });
});
