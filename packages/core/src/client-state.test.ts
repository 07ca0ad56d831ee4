import { loadClientStateVectors } from '@licence/vectors';
import type { ClientStateCase } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { okDonnees, primarySigner as signer, untrustedSigner as otherSigner } from '../test/test-signer.js';
import { clientStep, readCacheRecord } from './client-state.js';
import type { CacheRecord, CallOutcome, ClientStep, ClientStepInput } from './client-state.js';
import type { Donnees, SignedEnvelope } from './donnees.js';
import { signDonnees, verifySignature } from './ed25519.js';
import { parseHost } from './parse-host.js';
import { ValidationError } from './validation-error.js';

const vectors = loadClientStateVectors();

/** A case of client-states.json as clientStep's input (`cle` only when the case hands one). */
function inputOf(c: ClientStateCase, verify?: ClientStepInput['verify']): ClientStepInput {
  return {
    now: c.now,
    cache: c.cache,
    trustedPublicKeys: vectors.trustedPublicKeys,
    expect: c.expect,
    verify,
    ...(c.outcome === undefined ? {} : { outcome: c.outcome }),
    ...('cle' in c ? { cle: c.cle } : {}),
  };
}

describe('client-states.json vectors', () => {
  it('hold enough uniquely named cases to cover every state', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(45);
    expect(new Set(vectors.cases.map((c) => c.name)).size).toBe(vectors.cases.length);
    const seen = new Set(vectors.cases.map((c) => (c.result.action === 'call' ? 'call' : c.result.state)));
    expect([...seen].sort()).toEqual(['call', 'fresh', 'grace', 'lapsed', 'no_key', 'refreshed']);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(clientStep(inputOf(c))).toEqual(c.result);
  });

  // docs/protocol.md#hosts-in-clients: a case's `host` is what the client is configured with and
  // sends; expect.hote is its normalisation, once (not idempotent: www.www.x.fr gives www.x.fr).
  const configured = vectors.cases.flatMap((c) => (c.host === undefined ? [] : [[c.name, c.host, c.expect.hote]]));
  it('name a configured host in some cases', () => {
    expect(configured.length).toBeGreaterThan(0);
  });
  it.each(configured)('%s: expect.hote is the host normalised once', (_name, host, hote) => {
    expect(parseHost(host).hote).toBe(hote);
  });
});

// Scenario and property tests sign with core's own signer over the TEST ONLY seed.
const KEYS = [signer.publicKey];
const HOTE = 'boutique.exemple.fr';
const PRODUIT = 'theme-boutique';
const DAY = 86400;
const T0 = 1767225600;

function answer(emis: number, nonce: string, fields: Partial<Donnees> = {}): SignedEnvelope {
  return signDonnees(
    okDonnees({ emis, revalider: emis + DAY, hote: HOTE, produit: PRODUIT, nonce, ...fields }),
    signer,
  );
}

/** A client's life as the TS and PHP clients run it: read, step, call if told, step again, write. */
class SimulatedClient {
  file: unknown = null;
  calls = 0;
  private counter = 0;

  constructor(private readonly service: (now: number, nonce: string) => CallOutcome) {}

  run(now: number): Extract<ClientStep, { action: 'use' }> {
    // The file goes through JSON, as it does on disk.
    const cache: unknown = this.file === null ? null : JSON.parse(JSON.stringify(this.file));
    const first = clientStep({ now, cache, trustedPublicKeys: KEYS, expect: { hote: HOTE, produit: PRODUIT } });
    const step = first.action === 'call' ? this.call(now, cache) : first;
    if (step.action !== 'use') throw new Error('a step with an outcome always answers use');
    if (step.store !== null) this.file = step.store;
    return step;
  }

  private call(now: number, cache: unknown): ClientStep {
    this.calls++;
    const nonce = `nonce-${String(++this.counter).padStart(12, '0')}`;
    const outcome = this.service(now, nonce);
    return clientStep({
      now,
      cache,
      outcome,
      trustedPublicKeys: KEYS,
      expect: { hote: HOTE, produit: PRODUIT, nonce },
    });
  }
}

describe('clientStep over time', () => {
  it('makes one call a day while the service answers', () => {
    const client = new SimulatedClient((now, nonce) => ({ type: 'response', status: 200, body: answer(now, nonce) }));
    expect(client.run(T0)).toMatchObject({ state: 'refreshed', runs: true });
    for (let t = T0 + 60; t < T0 + DAY; t += 3600) expect(client.run(t)).toMatchObject({ state: 'fresh', store: null });
    expect(client.calls).toBe(1);
    expect(client.run(T0 + DAY)).toMatchObject({ state: 'refreshed' });
    expect(client.calls).toBe(2);
  });

  it('keeps the verdict through an outage, calling only as the back-off allows, then lapses', () => {
    let up = true;
    const client = new SimulatedClient((now, nonce) =>
      up ? { type: 'response', status: 200, body: answer(now, nonce) } : { type: 'failure', reason: 'timeout' },
    );
    client.run(T0);
    up = false;
    // One page view a minute for four hours: every answer runs the product, few calls are made.
    const callTimes: number[] = [];
    for (let t = T0 + DAY; t < T0 + DAY + 4 * 3600; t += 60) {
      const before = client.calls;
      expect(client.run(t)).toMatchObject({ state: 'grace', runs: true });
      if (client.calls > before) callTimes.push(t);
    }
    const gaps = callTimes.slice(1).map((t, i) => t - (callTimes[i] ?? 0));
    expect(gaps).toEqual([300, 600, 1200, 2400, 3600, 3600]);
    // Then a page view every six hours until the grace period is over.
    for (let t = T0 + 2 * DAY; t < T0 + 31 * DAY; t += 6 * 3600) {
      const step = client.run(t);
      expect(step.runs).toBe(true);
      expect(step.state).toBe(t < T0 + 30 * DAY ? 'grace' : 'lapsed');
    }
    expect(client.run(T0 + 31 * DAY)).toMatchObject({ state: 'lapsed', runs: true, donnees: { motif: 'reseau' } });
    up = true;
    expect(client.run(T0 + 32 * DAY)).toMatchObject({
      state: 'refreshed',
      runs: true,
      store: { failures: 0, retryAt: 0 },
    });
  });

  it('stops the product at once on a signed refusal, and keeps it stopped through an outage', () => {
    let mode: 'ok' | 'refused' | 'down' = 'ok';
    const client = new SimulatedClient((now, nonce) => {
      if (mode === 'down') return { type: 'failure', reason: 'network' };
      const fields = mode === 'refused' ? { ok: false, motif: 'transfert', quand: '2026-01-02T00:00:00Z' } : {};
      return { type: 'response', status: 200, body: answer(now, nonce, fields) };
    });
    expect(client.run(T0).runs).toBe(true);
    mode = 'refused';
    expect(client.run(T0 + DAY)).toMatchObject({ state: 'refreshed', runs: false });
    mode = 'down';
    expect(client.run(T0 + 2 * DAY)).toMatchObject({ state: 'grace', runs: false });
  });

  it('a replayed answer (an old nonce) never refreshes the cache', () => {
    const replay = answer(T0, 'nonce-captured-earlier');
    const client = new SimulatedClient(() => ({ type: 'response', status: 200, body: replay }));
    expect(client.run(T0)).toMatchObject({ state: 'lapsed', runs: true, store: { envelope: null, failures: 1 } });
  });
});

describe('clientStep details', () => {
  const NOW = T0 + 2 * DAY;
  const base = {
    now: NOW,
    trustedPublicKeys: KEYS,
    expect: { hote: HOTE, produit: PRODUIT, nonce: 'nonce-of-this-call-1' },
  };

  it('stores only donnees and signature of a good response', () => {
    const good = answer(NOW, 'nonce-of-this-call-1');
    const step = clientStep({
      ...base,
      cache: null,
      outcome: { type: 'response', status: 200, body: { ...good, trace: 'x' } },
    });
    expect(step).toMatchObject({ action: 'use', state: 'refreshed' });
    if (step.action !== 'use') return;
    expect(step.store).toEqual({ envelope: good, failures: 0, retryAt: 0 });
    expect(Object.keys(step.store?.envelope ?? {}).sort()).toEqual(['donnees', 'signature']);
  });

  it('rewrites a cached record with only the members it knows', () => {
    const cached = answer(T0, 'nonce-of-an-old-call');
    const cache = { envelope: { ...cached, extra: 1 }, failures: 0, retryAt: 0, future: true };
    const step = clientStep({ ...base, cache, outcome: { type: 'failure', reason: 'network' } });
    expect(step).toEqual({
      action: 'use',
      state: 'grace',
      donnees: cached.donnees,
      runs: true,
      store: { envelope: cached, failures: 1, retryAt: NOW + 300 },
    });
  });

  it('ignores a cache signed by a key it does not trust, whatever it says', () => {
    const forged = signDonnees(answer(T0, 'nonce-of-an-old-call').donnees, otherSigner);
    expect(clientStep({ ...base, now: T0 + 60, cache: { envelope: forged, failures: 0, retryAt: 0 } })).toEqual({
      action: 'call',
    });
  });

  it('keeps the stored failure count at the largest safe integer', () => {
    const step = clientStep({
      ...base,
      cache: { envelope: null, failures: Number.MAX_SAFE_INTEGER, retryAt: 0 },
      outcome: { type: 'failure', reason: 'network' },
    });
    expect(step).toMatchObject({ store: { envelope: null, failures: Number.MAX_SAFE_INTEGER, retryAt: NOW + 3600 } });
  });
});

describe('clientStep properties', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const cacheArb = fc.oneof(
    json,
    fc.record({ envelope: fc.oneof(fc.constant(null), json), failures: json, retryAt: json }),
    fc.record({
      envelope: fc.constant(answer(T0, 'nonce-of-an-old-call')),
      failures: fc.nat(100),
      retryAt: fc.integer({ min: 0, max: T0 + 400 * DAY }),
    }),
  );
  const outcomeArb: fc.Arbitrary<CallOutcome | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.record({
      type: fc.constant('failure' as const),
      reason: fc.constantFrom('network' as const, 'timeout' as const),
    }),
    fc.record({
      type: fc.constant('response' as const),
      status: fc.integer({ min: 100, max: 599 }),
      body: fc.oneof(json, fc.constant(answer(T0 + 2 * DAY, 'nonce-of-this-call-1'))),
      retryAfter: fc.oneof(fc.constant(null), fc.string(), fc.nat(100_000).map(String)),
    }),
  );

  it('never throws for any cache file or response, and keeps its promises', () => {
    fc.assert(
      fc.property(cacheArb, outcomeArb, fc.integer({ min: T0 - DAY, max: T0 + 60 * DAY }), (cache, outcome, now) => {
        const step = clientStep({
          now,
          cache,
          trustedPublicKeys: KEYS,
          expect: { hote: HOTE, produit: PRODUIT, nonce: 'nonce-of-this-call-1' },
          ...(outcome === undefined ? {} : { outcome }),
        });
        if (outcome !== undefined) expect(step.action).toBe('use');
        if (step.action === 'call') return;
        // A network problem never blocks; anything else runs exactly as the signed verdict says.
        expect(step.runs).toBe(step.state === 'lapsed' ? true : step.donnees.ok);
        expect(step.donnees.hote).toBe(HOTE);
        if (step.state === 'lapsed') expect(step.donnees.motif).toBe('reseau');
        if (outcome === undefined) {
          expect(step.state).not.toBe('refreshed');
          if (step.store !== null) expect(step.store.retryAt).toBe(now + 3600);
          return;
        }
        const store = step.store as CacheRecord;
        expect(store).not.toBeNull();
        if (step.state === 'refreshed') {
          expect(store).toMatchObject({ failures: 0, retryAt: 0 });
        } else {
          expect(store.failures).toBeGreaterThanOrEqual(1);
          expect(store.retryAt - now).toBeGreaterThanOrEqual(1);
          expect(store.retryAt - now).toBeLessThanOrEqual(3600);
        }
      }),
    );
  });
});

describe('clientStep input checks', () => {
  const good: ClientStepInput = { now: T0, cache: null, trustedPublicKeys: KEYS, expect: { hote: HOTE } };
  const cases: [string, unknown, string, string][] = [
    ['input null', null, 'input', 'input: expected an object, got null'],
    ['now fractional', { ...good, now: 1.5 }, 'now', 'now: expected a non-negative integer (seconds), got 1.5'],
    ['now negative', { ...good, now: -1 }, 'now', 'now: expected a non-negative integer (seconds), got -1'],
    [
      'now in milliseconds beyond safe',
      { ...good, now: 2 ** 53 },
      'now',
      'now: expected a non-negative integer (seconds), got 9007199254740992',
    ],
    [
      'now a string',
      { ...good, now: '1767225600' },
      'now',
      'now: expected a non-negative integer (seconds), got string',
    ],
    [
      'now missing',
      { ...good, now: undefined },
      'now',
      'now: expected a non-negative integer (seconds), got undefined',
    ],
    [
      'keys a string',
      { ...good, trustedPublicKeys: 'abc' },
      'trustedPublicKeys',
      'trustedPublicKeys: expected a non-empty array of public keys, got string',
    ],
    [
      'keys empty',
      { ...good, trustedPublicKeys: [] },
      'trustedPublicKeys',
      'trustedPublicKeys: expected a non-empty array of public keys, got array',
    ],
    [
      'key of 31 bytes',
      { ...good, trustedPublicKeys: [new Uint8Array(31)] },
      'trustedPublicKeys[0]',
      'trustedPublicKeys[0]: expected 32 bytes, got 31',
    ],
    ['expect missing', { ...good, expect: undefined }, 'expect', 'expect: expected an object, got undefined'],
    [
      'hote a number',
      { ...good, expect: { hote: 42 } },
      'expect.hote',
      'expect.hote: expected a non-empty string, got number',
    ],
    [
      'hote empty',
      { ...good, expect: { hote: '' } },
      'expect.hote',
      'expect.hote: expected a non-empty string, got string',
    ],
    [
      'produit null',
      { ...good, expect: { hote: HOTE, produit: null } },
      'expect.produit',
      'expect.produit: expected a non-empty string, got null',
    ],
    [
      'nonce a number',
      { ...good, expect: { hote: HOTE, nonce: 7 } },
      'expect.nonce',
      'expect.nonce: expected a non-empty string, got number',
    ],
    ['outcome a string', { ...good, outcome: 'timeout' }, 'outcome', 'outcome: expected an object, got string'],
    [
      'outcome type unknown',
      { ...good, outcome: { type: 'error' } },
      'outcome.type',
      'outcome.type: expected "response" or "failure", got "error"',
    ],
    [
      'outcome reason unknown',
      { ...good, outcome: { type: 'failure', reason: 'dns' } },
      'outcome.reason',
      'outcome.reason: expected "network" or "timeout", got "dns"',
    ],
    [
      'status a string',
      { ...good, outcome: { type: 'response', status: '200', body: null } },
      'outcome.status',
      'outcome.status: expected an HTTP status from 100 to 599, got string',
    ],
    [
      'status out of range',
      { ...good, outcome: { type: 'response', status: 42, body: null } },
      'outcome.status',
      'outcome.status: expected an HTTP status from 100 to 599, got 42',
    ],
    [
      'retryAfter a number',
      { ...good, outcome: { type: 'response', status: 429, body: null, retryAfter: 120 } },
      'outcome.retryAfter',
      'outcome.retryAfter: expected a string or null, got number',
    ],
  ];

  it.each(cases)('%s', (_label, input, field, message) => {
    let caught: unknown;
    try {
      clientStep(input as ClientStepInput);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).toMatchObject({ field, message });
  });

  it('checks the caller even when there is nothing to verify', () => {
    // No cache and no outcome: verifyEnvelope never runs, yet a bad key list is still reported.
    expect(() => clientStep({ ...good, trustedPublicKeys: ['not base64!'] })).toThrow(ValidationError);
  });
});

describe('clientStep with an injected verifier', () => {
  it('gives every client-states.json result with a verifier that delegates to core', () => {
    let calls = 0;
    const verify = (signature: Uint8Array, message: Uint8Array, key: Uint8Array) => {
      calls += 1;
      return verifySignature(signature, message, key);
    };
    for (const c of vectors.cases) {
      expect(clientStep(inputOf(c, verify)), c.name).toEqual(c.result);
    }
    // Cached envelopes and responses alike went through it.
    expect(calls).toBeGreaterThanOrEqual(vectors.cases.length / 2);
  });

  it('uses it for the cached envelope and for the response', () => {
    const cached = answer(T0, 'nonce-of-an-old-call');
    const cache = { envelope: cached, failures: 0, retryAt: 0 };
    const base = { now: T0 + 60, cache, trustedPublicKeys: KEYS, expect: { hote: HOTE, produit: PRODUIT } };
    expect(clientStep({ ...base, verify: () => false })).toEqual({ action: 'call' });
    expect(clientStep({ ...base, verify: verifySignature })).toMatchObject({ action: 'use', state: 'fresh' });
    // A verifier that knows only the cached signature: the good response is refused with it.
    const good = answer(T0 + 2 * DAY, 'nonce-of-this-call-1');
    const step = clientStep({
      ...base,
      now: T0 + 2 * DAY,
      expect: { hote: HOTE, produit: PRODUIT, nonce: 'nonce-of-this-call-1' },
      outcome: { type: 'response', status: 200, body: good },
      verify: (signature) => Buffer.from(signature).toString('base64') === cached.signature,
    });
    expect(step).toMatchObject({ action: 'use', state: 'grace', store: { envelope: cached, failures: 1 } });
  });

  it('refuses a verifier that is not a function', () => {
    const input = { now: T0, cache: null, trustedPublicKeys: KEYS, expect: { hote: HOTE }, verify: 7 };
    expect(() => clientStep(input as unknown as ClientStepInput)).toThrow(ValidationError);
    expect(() => clientStep(input as unknown as ClientStepInput)).toThrow(
      'input.verify: expected a function, got number',
    );
  });
});

describe('readCacheRecord (what clientStep accepts of a cache file)', () => {
  const cached = answer(T0, 'nonce-of-an-old-call');
  const expectation = { hote: HOTE, produit: PRODUIT };

  it('keeps a well-formed record whose envelope verifies, with only the members it knows', () => {
    const cache = { envelope: { ...cached, extra: 1 }, failures: 2, retryAt: T0 + 600, recu: T0 + 5 };
    expect(readCacheRecord(cache, KEYS, expectation)).toEqual({ envelope: cached, failures: 2, retryAt: T0 + 600 });
    expect(readCacheRecord({ envelope: null, failures: 1, retryAt: 5 }, KEYS, expectation)).toEqual({
      envelope: null,
      failures: 1,
      retryAt: 5,
    });
  });

  it('is null for garbage, a bad shape, another host or product, an untrusted signer', () => {
    const forged = signDonnees(cached.donnees, otherSigner);
    for (const cache of [
      null,
      'x',
      [cached],
      { envelope: cached, failures: -1, retryAt: 0 },
      { envelope: cached, failures: 0 },
      { envelope: forged, failures: 0, retryAt: 0 },
      { envelope: { ...cached, donnees: { ...cached.donnees, revalider: T0 + 400 * DAY } }, failures: 0, retryAt: 0 },
    ]) {
      expect(readCacheRecord(cache, KEYS, expectation)).toBeNull();
    }
    const record = { envelope: cached, failures: 0, retryAt: 0 };
    expect(readCacheRecord(record, KEYS, { hote: 'autre.exemple.fr', produit: PRODUIT })).toBeNull();
    expect(readCacheRecord(record, KEYS, { hote: HOTE, produit: 'autre-produit' })).toBeNull();
  });

  it('agrees with clientStep on every client-states.json cache', () => {
    for (const c of vectors.cases) {
      const expectCached =
        c.expect.produit === undefined ? { hote: c.expect.hote } : { hote: c.expect.hote, produit: c.expect.produit };
      const record = readCacheRecord(c.cache, vectors.trustedPublicKeys, expectCached);
      if (c.outcome === undefined && c.result.action === 'use' && c.result.state === 'fresh') {
        expect(record?.envelope?.donnees, c.name).toEqual(c.result.donnees);
      }
      if (c.result.action === 'call' && c.cache !== null && record !== null) {
        // A call with an accepted record means a stale verdict, or a back-off already over.
        expect((record.envelope?.donnees.revalider ?? 0) <= c.now, c.name).toBe(true);
      }
    }
  });

  it('hands the injected verifier to verifyEnvelope', () => {
    expect(
      readCacheRecord({ envelope: cached, failures: 0, retryAt: 0 }, KEYS, expectation, { verify: () => false }),
    ).toBeNull();
  });
});

describe('clientStep with the buyer key (docs/protocol.md#no-usable-key)', () => {
  const base = { now: T0, cache: null, trustedPublicKeys: KEYS, expect: { hote: HOTE, produit: PRODUIT } };

  it('asks about a key only when one is handed: absent, the cache decides; undefined, nothing was entered', () => {
    expect(clientStep(base)).toEqual({ action: 'call' });
    expect(clientStep({ ...base, cle: undefined })).toMatchObject({
      action: 'use',
      state: 'no_key',
      runs: false,
      store: null,
      donnees: { ok: false, motif: 'sans_cle', hote: HOTE, produit: PRODUIT, emis: T0, sursis: 0 },
    });
  });

  it('still refuses a caller mistake first: a key problem never hides a bad argument', () => {
    expect(() => clientStep({ ...base, now: -1, cle: '' })).toThrow(ValidationError);
    expect(() => clientStep({ ...base, trustedPublicKeys: [], cle: '' })).toThrow(ValidationError);
  });
});
