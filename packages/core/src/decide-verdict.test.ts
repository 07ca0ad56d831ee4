import { loadVerdictVectors, type VerdictCase } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideVerdict,
  DEFAULT_VERDICT_SETTINGS,
  type KeyRecord,
  type VerdictRequest,
  type VerdictSettings,
} from './decide-verdict.js';
import { MOTIFS } from './donnees.js';
import type { HostInfo } from './parse-host.js';
import { ValidationError } from './validation-error.js';

const vectors = loadVerdictVectors();

/** The request a vector describes: optional fields only when the case has them. */
function requestOf(c: VerdictCase): VerdictRequest {
  return {
    key: c.key,
    host: c.host,
    now: c.now,
    ...(c.produit === undefined ? {} : { produit: c.produit }),
    ...(c.nonce === undefined ? {} : { nonce: c.nonce }),
    ...(c.settings === undefined ? {} : { settings: c.settings }),
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

  it('applies when settings are absent or explicitly undefined (a JavaScript caller)', () => {
    const request = {
      key: null,
      host: { hote: 'exemple.fr', registrable: 'exemple.fr', test: false },
      now: 1000,
      settings: undefined,
    };
    const { donnees } = decideVerdict(request as unknown as VerdictRequest);
    expect(donnees.revalider).toBe(1000 + 86400);
    expect(donnees.sursis).toBe(2592000);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated requests: what must hold whatever the rule that answers.

const HOSTS: readonly HostInfo[] = [
  { hote: 'exemple.fr', registrable: 'exemple.fr', test: false },
  { hote: 'shop.exemple.fr', registrable: 'exemple.fr', test: false },
  { hote: 'autre.fr', registrable: 'autre.fr', test: false },
  { hote: 'galerie.fr', registrable: 'galerie.fr', test: false },
  { hote: '203.0.113.7', registrable: '203.0.113.7', test: false },
  { hote: 'localhost', registrable: null, test: true },
  { hote: '10.0.0.5', registrable: null, test: true },
  { hote: 'staging.exemple.fr', registrable: 'exemple.fr', test: true },
  { hote: 'boutique.test', registrable: 'boutique.test', test: true },
];
const DOMAINS = ['exemple.fr', 'autre.fr', 'galerie.fr', '203.0.113.7', 'atelier.com'];
const PRODUCTS = ['galerie-pro', 'diaporama', 'formulaires'];
const seconds = fc.integer({ min: 0, max: 4_102_444_800 });

const keyRecord: fc.Arbitrary<KeyRecord> = fc
  .record({
    kind: fc.constantFrom('buyer', 'trial', 'dev'),
    status: fc.constantFrom('active', 'transfert', 'regeneration', 'revocation'),
    ended: seconds,
    expires: seconds,
    products: fc.subarray(PRODUCTS),
    sites: fc.integer({ min: 0, max: 4 }),
    domains: fc.shuffledSubarray(DOMAINS),
  })
  .map(({ kind, status, ended, expires, products, sites, domains }) => ({
    kind,
    status,
    endedAt: status === 'active' ? null : ended,
    expiresAt: kind === 'trial' ? expires : null,
    products,
    sites,
    domains,
  }));

const request: fc.Arbitrary<VerdictRequest> = fc
  .record({
    key: fc.option(keyRecord, { nil: null }),
    host: fc.constantFrom(...HOSTS),
    produit: fc.option(fc.constantFrom(...PRODUCTS), { nil: undefined }),
    nonce: fc.option(fc.constantFrom('q3V9_xYk-2LmT8pR4sWz1A', 'AAAAAAAAAAAAAAAA'), {
      nil: undefined,
    }),
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
        const again = decideVerdict({ ...r, key: { ...r.key, domains: [...r.key.domains, first.bind] } });
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
    const key: KeyRecord = {
      kind: 'buyer',
      status: 'active',
      endedAt: null,
      expiresAt: null,
      products: ['galerie-pro'],
      sites: 1,
      domains: [],
    };
    const a: HostInfo = { hote: 'exemple.fr', registrable: 'exemple.fr', test: false };
    const b: HostInfo = { hote: 'autre.fr', registrable: 'autre.fr', test: false };
    expect(decideVerdict({ key, host: a, now: 1 }).bind).toBe('exemple.fr');
    expect(decideVerdict({ key, host: b, now: 1 }).bind).toBe('autre.fr');
    const fresh: KeyRecord = { ...key, domains: ['exemple.fr'] };
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
// Boundary checks: exact messages, the field at fault, and no rule consulted before them.

const VALID_KEY = {
  kind: 'buyer',
  status: 'active',
  endedAt: null,
  expiresAt: null,
  products: ['galerie-pro'],
  sites: 1,
  domains: ['exemple.fr'],
};
const VALID_HOST = { hote: 'exemple.fr', registrable: 'exemple.fr', test: false };
const VALID = { key: VALID_KEY, host: VALID_HOST, now: 1795342440 };

/** Calls decideVerdict with a request a JavaScript caller could build, typed or not. */
function decideUnknown(input: unknown) {
  return decideVerdict(input as VerdictRequest);
}

function expectValidationError(input: unknown, field: string, message: string): void {
  let error: unknown;
  try {
    decideUnknown(input);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ field, message });
}

const withKey = (patch: Record<string, unknown>) => ({ ...VALID, key: { ...VALID_KEY, ...patch } });
const withHost = (patch: Record<string, unknown>) => ({ ...VALID, host: { ...VALID_HOST, ...patch } });
const { key: _key, ...withoutKey } = VALID;
const { host: _host, ...withoutHost } = VALID;
const { now: _now, ...withoutNow } = VALID;

describe('decideVerdict input checks', () => {
  it('accepts the base request used below', () => {
    expect(decideUnknown(VALID).donnees.ok).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['no request', null, 'request: expected an object, got null'],
    ['a string request', 'exemple.fr', 'request: expected an object, got string'],
    ['an array request', [VALID], 'request: expected an object, got array'],

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

    ['null settings', { ...VALID, settings: null }, 'settings: expected an object, got null'],
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

    ['an empty produit', { ...VALID, produit: '' }, 'produit: expected 1 to 64 characters, got 0'],
    ['a null produit', { ...VALID, produit: null }, 'produit: expected a string, got null'],
    ['an upper-case produit', { ...VALID, produit: 'Galerie' }, 'produit: expected only a-z, 0-9, ".", "_" and "-"'],
    ['a short nonce', { ...VALID, nonce: 'short' }, 'nonce: expected 16 to 64 characters, got 5'],
    ['a base64 nonce', { ...VALID, nonce: 'AAAAAAAAAAAAAA==' }, 'nonce: expected only A-Z, a-z, 0-9, "_" and "-"'],

    ['no host', withoutHost, 'host: expected an object, got undefined'],
    ['a string host', { ...VALID, host: 'exemple.fr' }, 'host: expected an object, got string'],
    ['an empty hote', withHost({ hote: '' }), 'host.hote: expected a non-empty string, got an empty string'],
    ['a numeric hote', withHost({ hote: 42 }), 'host.hote: expected a non-empty string, got number'],
    [
      'no registrable',
      withHost({ registrable: undefined }),
      'host.registrable: expected null or a non-empty string, got undefined',
    ],
    [
      'an empty registrable',
      withHost({ registrable: '' }),
      'host.registrable: expected null or a non-empty string, got an empty string',
    ],
    ['test as a string', withHost({ test: 'false' }), 'host.test: expected a boolean, got string'],
    [
      'a real host without a registrable domain',
      withHost({ hote: 'co.uk', registrable: null }),
      'host.registrable: expected a registrable domain for a host that is not a test host, got null',
    ],
    [
      'a real host without a registrable domain, even for no such key',
      { ...VALID, key: null, host: { hote: 'co.uk', registrable: null, test: false } },
      'host.registrable: expected a registrable domain for a host that is not a test host, got null',
    ],

    ['no key field', withoutKey, 'key: expected an object or null, got undefined'],
    ['a key as a string', { ...VALID, key: 'ABCDE-FGHJK' }, 'key: expected an object or null, got string'],
    ['a key as an array', { ...VALID, key: [] }, 'key: expected an object or null, got array'],
    ['an unknown kind', withKey({ kind: 'gold' }), 'key.kind: expected one of "buyer", "trial", "dev", got "gold"'],
    ['no kind', withKey({ kind: undefined }), 'key.kind: expected one of "buyer", "trial", "dev", got undefined'],
    [
      'an unknown status',
      withKey({ status: 'expiree' }),
      'key.status: expected one of "active", "transfert", "regeneration", "revocation", got "expiree"',
    ],
    ['endedAt as a string', withKey({ endedAt: '2026' }), 'key.endedAt: expected null or a number, got string'],
    ['no endedAt', withKey({ endedAt: undefined }), 'key.endedAt: expected null or a number, got undefined'],
    [
      'a negative endedAt',
      withKey({ status: 'revocation', endedAt: -1 }),
      'key.endedAt: expected an integer from 0 to 253402300799, got -1',
    ],
    [
      'an endedAt past year 9999',
      withKey({ status: 'revocation', endedAt: 253402300800 }),
      'key.endedAt: expected an integer from 0 to 253402300799, got 253402300800',
    ],
    [
      'a fractional expiresAt',
      withKey({ kind: 'trial', expiresAt: 1.5 }),
      'key.expiresAt: expected an integer from 0 to 253402300799, got 1.5',
    ],
    ['products as a string', withKey({ products: 'galerie-pro' }), 'key.products: expected an array, got string'],
    [
      'a numeric product',
      withKey({ products: ['galerie-pro', 7] }),
      'key.products[1]: expected a non-empty string, got number',
    ],
    [
      'an empty product',
      withKey({ products: [''] }),
      'key.products[0]: expected a non-empty string, got an empty string',
    ],
    ['negative sites', withKey({ sites: -1 }), 'key.sites: expected an integer from 0 to 9007199254740991, got -1'],
    ['fractional sites', withKey({ sites: 1.5 }), 'key.sites: expected an integer from 0 to 9007199254740991, got 1.5'],
    ['sites as a string', withKey({ sites: '1' }), 'key.sites: expected a number, got string'],
    ['null domains', withKey({ domains: null }), 'key.domains: expected an array, got null'],
    [
      'an empty bound domain',
      withKey({ domains: ['exemple.fr', ''] }),
      'key.domains[1]: expected a non-empty string, got an empty string',
    ],
    [
      'an active key with an end',
      withKey({ endedAt: 1793810730 }),
      'key.endedAt: expected null for an active key, got 1793810730',
    ],
    [
      'a revoked key without a date',
      withKey({ status: 'revocation' }),
      'key.endedAt: expected a number for a key with status "revocation", got null',
    ],
    [
      'a transferred key without a date',
      withKey({ status: 'transfert' }),
      'key.endedAt: expected a number for a key with status "transfert", got null',
    ],
    [
      'a trial key without an end',
      withKey({ kind: 'trial' }),
      'key.expiresAt: expected a number for a trial key, got null',
    ],
    [
      'a buyer key with an end',
      withKey({ expiresAt: 1795996800 }),
      'key.expiresAt: expected null for a buyer key, got 1795996800',
    ],
    [
      'a dev key with an end',
      withKey({ kind: 'dev', expiresAt: 1795996800 }),
      'key.expiresAt: expected null for a dev key, got 1795996800',
    ],
    // Checked before any rule: rule 2 alone would have answered inconnue here.
    [
      'a malformed record whatever rule would answer',
      { ...withKey({ domains: [3] }), produit: 'formulaires' },
      'key.domains[0]: expected a non-empty string, got number',
    ],
  ])('refuses %s', (_what, input, message) => {
    // Every message opens with the field it names (`key.sites: expected ...`).
    expectValidationError(input, message.slice(0, message.indexOf(':')), message);
  });

  it('accepts the largest now the settings allow, and times up to year 9999', () => {
    const latest = decideUnknown({ ...VALID, now: Number.MAX_SAFE_INTEGER - 86400 });
    expect(latest.donnees.revalider).toBe(Number.MAX_SAFE_INTEGER);
    const ended = decideUnknown(withKey({ status: 'revocation', endedAt: 253402300799 }));
    expect(ended.donnees.quand).toBe('9999-12-31T23:59:59Z');
  });

  it('ignores fields it does not know', () => {
    const decided = decideUnknown({ ...VALID, extra: 1, key: { ...VALID_KEY, id: 7, hint: 'WXYZ' } });
    expect(decided.donnees.ok).toBe(true);
    expect(Object.keys(decided.donnees).sort()).toEqual([...SPEC_FIELDS].sort());
  });
});
