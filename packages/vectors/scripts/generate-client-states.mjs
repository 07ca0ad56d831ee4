// Writes cases/client-states.json: the client cache state machine (docs/protocol.md#states,
// #back-off). Every expected result below is written by hand from the rules; the script only
// computes Ed25519 signatures with node:crypto (OpenSSL, independent of @licence/core's noble
// code) over the TEST ONLY seeds, and makes deliberately broken envelopes from them.
// Run: node scripts/generate-client-states.mjs
import { writeFileSync } from 'node:fs';
import { keys, signWith } from './test-keys.mjs';

const signed = (donnees, key = 'primary') => ({ donnees, signature: signWith(key, donnees) });
/** A field changed after signing: the signature no longer matches. */
const tampered = (envelope, changes) => ({
  donnees: { ...envelope.donnees, ...changes },
  signature: envelope.signature,
});
/** The cache file's content. */
const record = (envelope, failures = 0, retryAt = 0) => ({ envelope, failures, retryAt });

// ---------------------------------------------------------------------------------------------
// Time. All timestamps are seconds since the epoch.
const DAY = 86400;
const SURSIS = 2592000; // 30 days
const EMIS = 1767225600; // Thu, 01 Jan 2026 00:00:00 GMT: when the cached verdict was issued
const FRESH = EMIS + 3600; // an hour later: before revalider
const NOW = EMIS + 2 * DAY; // Sat, 03 Jan 2026 00:00:00 GMT: stale, well inside grace
const GRACE_END = EMIS + SURSIS; // Sat, 31 Jan 2026 00:00:00 GMT: emis + sursis

const HOTE = 'boutique.exemple.fr';
const PRODUIT = 'theme-boutique';
const NONCE = 'nonce_de_cet-appel_0001'; // sent with the call under test
const OLD_NONCE = 'nonce_d_un-ancien-appel'; // sent with the call that filled the cache

/** What the client knows before calling (no nonce: no call yet). */
const BEFORE_CALL = { hote: HOTE, produit: PRODUIT };
/** What the client knows after a call. */
const AFTER_CALL = { hote: HOTE, produit: PRODUIT, nonce: NONCE };

const verdict = (fields = {}) => ({
  ok: true,
  motif: '',
  domaine: 'exemple.fr',
  essai: false,
  quand: '',
  emis: EMIS,
  revalider: EMIS + DAY,
  sursis: SURSIS,
  hote: HOTE,
  produit: PRODUIT,
  nonce: OLD_NONCE,
  ...fields,
});
const without = (object, ...names) =>
  Object.fromEntries(Object.entries(object).filter(([name]) => !names.includes(name)));

// Cached envelopes (issued at EMIS by an earlier call).
const CACHED = signed(verdict());
const CACHED_REFUSAL = signed(verdict({ ok: false, motif: 'revocation', quand: '2026-01-01T00:00:00Z' }));
const CACHED_ROTATION = signed(verdict(), 'rotation');
const CACHED_NO_NONCE = signed(without(verdict(), 'nonce'));
const CACHED_NO_PRODUIT = signed(without(verdict(), 'produit'));
const CACHED_SHORT_SURSIS = signed(verdict({ sursis: 3600 }));
const CACHED_UNTRUSTED = signed(verdict(), 'untrusted');
const CACHED_OTHER_HOST = signed(verdict({ hote: 'autre-boutique.fr', domaine: 'autre-boutique.fr' }));
const CACHED_OTHER_PRODUIT = signed(verdict({ produit: 'autre-theme' }));
const CACHED_NOT_A_VERDICT = signed(without(verdict(), 'sursis'));
const CACHED_TRUNCATED = {
  donnees: CACHED.donnees,
  signature: Buffer.from(CACHED.signature, 'base64').subarray(0, 63).toString('base64'),
};

// Responses to the call under test (issued at NOW, echoing NONCE).
const answer = (fields = {}, key = 'primary') =>
  signed(verdict({ emis: NOW, revalider: NOW + DAY, nonce: NONCE, ...fields }), key);
const ANSWER = answer();
const ANSWER_REFUSAL = answer({ ok: false, motif: 'transfert', quand: '2026-01-02T09:30:00Z' });
const ANSWER_UNKNOWN = answer({ ok: false, motif: 'inconnue', domaine: '' });
const ANSWER_ROTATION = answer({}, 'rotation');

const response = (status, body, retryAfter) => ({
  type: 'response',
  status,
  body,
  ...(retryAfter === undefined ? {} : { retryAfter }),
});
const problem = (status, title) => ({ type: 'about:blank', title, status, detail: title });
const NETWORK = { type: 'failure', reason: 'network' };
const TIMEOUT = { type: 'failure', reason: 'timeout' };

// Expected results.
const CALL = { action: 'call' };
const use = (state, donnees, runs, store) => ({ action: 'use', state, donnees, runs, store });
/** Lapsed (docs/protocol.md#states: `reseau`, made by the client): never blocks. */
const reseau = (now, expect = BEFORE_CALL) => ({
  ok: false,
  motif: 'reseau',
  domaine: '',
  essai: false,
  quand: '',
  emis: now,
  revalider: now,
  sursis: 0,
  hote: expect.hote,
  ...(expect.produit === undefined ? {} : { produit: expect.produit }),
});

// ---------------------------------------------------------------------------------------------
// [name, now, cache, outcome (undefined: none), expect, result]
const table = [
  // --- The table of docs/protocol.md#states, without a call outcome ------------------------
  [
    'fresh: cached positive verdict before revalider, no call',
    FRESH,
    record(CACHED),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED.donnees, true, null),
  ],
  [
    'fresh: one second before revalider',
    EMIS + DAY - 1,
    record(CACHED),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED.donnees, true, null),
  ],
  ['stale: revalider == now, must call', EMIS + DAY, record(CACHED), undefined, BEFORE_CALL, CALL],
  ['stale: past revalider, inside grace, no back-off: call', NOW, record(CACHED), undefined, BEFORE_CALL, CALL],
  [
    'stale: back-off already over (retryAt in the past): call',
    NOW,
    record(CACHED, 2, NOW - 1),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  ['no cache file: call', NOW, null, undefined, BEFORE_CALL, CALL],
  [
    'fresh: a cached signed refusal stops the product at once',
    FRESH,
    record(CACHED_REFUSAL),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED_REFUSAL.donnees, false, null),
  ],
  [
    'fresh: cache signed by the second trusted key (key rotation)',
    FRESH,
    record(CACHED_ROTATION),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED_ROTATION.donnees, true, null),
  ],
  [
    'fresh: cached verdict fetched without a nonce',
    FRESH,
    record(CACHED_NO_NONCE),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED_NO_NONCE.donnees, true, null),
  ],
  [
    'fresh: the nonce of a new call is never asked of a cached verdict',
    FRESH,
    record(CACHED),
    undefined,
    AFTER_CALL,
    use('fresh', CACHED.donnees, true, null),
  ],
  [
    'fresh: a client without produit uses a verdict without produit',
    FRESH,
    record(CACHED_NO_PRODUIT),
    undefined,
    { hote: HOTE },
    use('fresh', CACHED_NO_PRODUIT.donnees, true, null),
  ],
  [
    'fresh wins over a pending back-off',
    FRESH,
    record(CACHED, 2, FRESH + 600),
    undefined,
    BEFORE_CALL,
    use('fresh', CACHED.donnees, true, null),
  ],

  // --- Back-off: no call before retryAt --------------------------------------------------------
  [
    'back-off with a valid stale cache: grace, no call',
    NOW,
    record(CACHED, 1, NOW + 200),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED.donnees, true, null),
  ],
  ['back-off ends when now == retryAt: call', NOW, record(CACHED, 1, NOW), undefined, BEFORE_CALL, CALL],
  [
    'back-off with no verdict ever stored: lapsed, no call',
    NOW,
    record(null, 1, NOW + 200),
    undefined,
    BEFORE_CALL,
    use('lapsed', reseau(NOW), true, null),
  ],
  [
    'back-off, cached verdict past grace: lapsed, no call',
    GRACE_END + 100,
    record(CACHED, 3, GRACE_END + 200),
    undefined,
    BEFORE_CALL,
    use('lapsed', reseau(GRACE_END + 100), true, null),
  ],
  [
    'back-off, emis + sursis == now: lapsed',
    GRACE_END,
    record(CACHED, 3, GRACE_END + 100),
    undefined,
    BEFORE_CALL,
    use('lapsed', reseau(GRACE_END), true, null),
  ],
  [
    'back-off, emis + sursis == now + 1: grace',
    GRACE_END - 1,
    record(CACHED, 3, GRACE_END + 100),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED.donnees, true, null),
  ],
  [
    'back-off with a cached refusal in grace: it still stops the product',
    NOW,
    record(CACHED_REFUSAL, 1, NOW + 100),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED_REFUSAL.donnees, false, null),
  ],
  [
    "back-off: grace ends at the verdict's own sursis, not at 30 days",
    EMIS + DAY + 10,
    record(CACHED_SHORT_SURSIS, 1, EMIS + DAY + 100),
    undefined,
    BEFORE_CALL,
    use('lapsed', reseau(EMIS + DAY + 10), true, null),
  ],
  [
    'back-off: a retryAt ten days ahead is cut to now + 3600 and written back',
    NOW,
    record(CACHED, 2, NOW + 10 * DAY),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 2, NOW + 3600)),
  ],
  [
    'back-off: retryAt == now + 3600 is kept as it is',
    NOW,
    record(CACHED, 5, NOW + 3600),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED.donnees, true, null),
  ],
  [
    'back-off: retryAt == now + 3601 is cut by one second',
    NOW,
    record(CACHED, 5, NOW + 3601),
    undefined,
    BEFORE_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 5, NOW + 3600)),
  ],
  [
    'back-off: a far retryAt with no verdict: lapsed, cut written back',
    NOW,
    record(null, 5, 4102444800),
    undefined,
    BEFORE_CALL,
    use('lapsed', reseau(NOW), true, record(null, 5, NOW + 3600)),
  ],

  // --- Cache files that are not trusted: as if there were none ---------------------------------
  [
    'tampered cache: revalider pushed a year ahead after signing: call',
    NOW,
    record(tampered(CACHED, { revalider: EMIS + 365 * DAY })),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  [
    'tampered cache: a fresh refusal turned into ok: call',
    FRESH,
    record(tampered(CACHED_REFUSAL, { ok: true, motif: '', quand: '' })),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  [
    'tampered cache: its back-off is ignored too: call',
    NOW,
    record(tampered(CACHED, { domaine: 'autre.fr' }), 1, NOW + 200),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  ['cache signed by an untrusted key: call', FRESH, record(CACHED_UNTRUSTED), undefined, BEFORE_CALL, CALL],
  ['cache for another host: call', FRESH, record(CACHED_OTHER_HOST), undefined, BEFORE_CALL, CALL],
  ['cache for another product: call', FRESH, record(CACHED_OTHER_PRODUIT), undefined, BEFORE_CALL, CALL],
  [
    'cache without produit while a product is expected: call',
    FRESH,
    record(CACHED_NO_PRODUIT),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  ['cache with a truncated signature (63 bytes): call', FRESH, record(CACHED_TRUNCATED), undefined, BEFORE_CALL, CALL],
  [
    'cache whose envelope has no signature: call',
    FRESH,
    record({ donnees: CACHED.donnees }),
    undefined,
    BEFORE_CALL,
    CALL,
  ],
  [
    'cache whose signed donnees lack a field (sursis): call',
    FRESH,
    record(CACHED_NOT_A_VERDICT),
    undefined,
    BEFORE_CALL,
    CALL,
  ],

  // --- Garbage cache files -------------------------------------------------------------------
  ['garbage cache: a string: call', FRESH, 'corrupt', undefined, BEFORE_CALL, CALL],
  ['garbage cache: a number: call', FRESH, 42, undefined, BEFORE_CALL, CALL],
  ['garbage cache: an array holding a record: call', FRESH, [record(CACHED)], undefined, BEFORE_CALL, CALL],
  ['garbage cache: an empty object: call', FRESH, {}, undefined, BEFORE_CALL, CALL],
  ['garbage cache: the bare envelope instead of a record: call', FRESH, CACHED, undefined, BEFORE_CALL, CALL],
  ['garbage cache: failures missing: call', FRESH, { envelope: CACHED, retryAt: 0 }, undefined, BEFORE_CALL, CALL],
  ['garbage cache: retryAt missing: call', FRESH, { envelope: CACHED, failures: 0 }, undefined, BEFORE_CALL, CALL],
  ['garbage cache: envelope missing: call', NOW, { failures: 1, retryAt: NOW + 200 }, undefined, BEFORE_CALL, CALL],
  ['garbage cache: negative failures: call', FRESH, record(CACHED, -1, 0), undefined, BEFORE_CALL, CALL],
  ['garbage cache: fractional failures: call', FRESH, record(CACHED, 1.5, 0), undefined, BEFORE_CALL, CALL],
  ['garbage cache: retryAt as a string: call', NOW, record(null, 1, String(NOW + 200)), undefined, BEFORE_CALL, CALL],
  ['garbage cache: envelope is a string: call', FRESH, record('{"donnees":{}}'), undefined, BEFORE_CALL, CALL],
  ['garbage cache: envelope is an empty object: call', FRESH, record({}), undefined, BEFORE_CALL, CALL],

  // --- Stale + the service answers: refreshed ------------------------------------------------
  [
    'stale + 200 signed verdict: refreshed, stored, back-off cleared',
    NOW,
    record(CACHED),
    response(200, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],
  [
    'no cache + 200 signed verdict: refreshed',
    NOW,
    null,
    response(200, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],
  [
    'garbage cache + 200 signed verdict: refreshed, garbage replaced',
    NOW,
    'corrupt',
    response(200, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],
  [
    'a refreshed refusal replaces a positive cache and stops the product',
    NOW,
    record(CACHED),
    response(200, ANSWER_REFUSAL),
    AFTER_CALL,
    use('refreshed', ANSWER_REFUSAL.donnees, false, record(ANSWER_REFUSAL)),
  ],
  [
    'a signed inconnue with no cache stops the product at once',
    NOW,
    null,
    response(200, ANSWER_UNKNOWN),
    AFTER_CALL,
    use('refreshed', ANSWER_UNKNOWN.donnees, false, record(ANSWER_UNKNOWN)),
  ],
  [
    'a refreshed positive verdict replaces a cached refusal',
    NOW,
    record(CACHED_REFUSAL),
    response(200, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],
  [
    '200 signed by the second trusted key (key rotation): refreshed',
    NOW,
    record(CACHED),
    response(200, ANSWER_ROTATION),
    AFTER_CALL,
    use('refreshed', ANSWER_ROTATION.donnees, true, record(ANSWER_ROTATION)),
  ],
  [
    'success after five failures resets failures and retryAt',
    NOW,
    record(CACHED, 5, NOW - 1),
    response(200, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],
  [
    '201 with a good envelope is a 2xx: refreshed',
    NOW,
    record(CACHED),
    response(201, ANSWER),
    AFTER_CALL,
    use('refreshed', ANSWER.donnees, true, record(ANSWER)),
  ],

  // --- Failed calls: grace with a valid cache ---------------------------------------------------
  [
    '200 for another host: failed, grace',
    NOW,
    record(CACHED),
    response(200, answer({ hote: 'autre-boutique.fr' })),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 for another product: failed, grace',
    NOW,
    record(CACHED),
    response(200, answer({ produit: 'autre-theme' })),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 with the nonce of an old call (a replay): failed, grace',
    NOW,
    record(CACHED),
    response(200, answer({ nonce: OLD_NONCE })),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 without the nonce that was sent: failed, grace',
    NOW,
    record(CACHED),
    response(200, signed(without(ANSWER.donnees, 'nonce'))),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 without produit while one was sent: failed, grace',
    NOW,
    record(CACHED),
    response(200, signed(without(ANSWER.donnees, 'produit'))),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 with no signature: failed, grace',
    NOW,
    record(CACHED),
    response(200, { donnees: ANSWER.donnees }),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 with a signature that is not base64: failed, grace',
    NOW,
    record(CACHED),
    response(200, { donnees: ANSWER.donnees, signature: '%%% not base64 %%%' }),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 signed by an untrusted key: failed, grace',
    NOW,
    record(CACHED),
    response(200, answer({}, 'untrusted')),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 forged: a refusal turned into ok cannot unblock a cached refusal',
    NOW,
    record(CACHED_REFUSAL),
    response(200, tampered(ANSWER_REFUSAL, { ok: true, motif: '', quand: '' })),
    AFTER_CALL,
    use('grace', CACHED_REFUSAL.donnees, false, record(CACHED_REFUSAL, 1, NOW + 300)),
  ],
  [
    '200 with a body that is a JSON string: failed, grace',
    NOW,
    record(CACHED),
    response(200, 'ok'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '200 with no body (null): failed, grace',
    NOW,
    record(CACHED),
    response(200, null),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '204 without a body: failed, grace',
    NOW,
    record(CACHED),
    response(204, null),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '500 problem+json: failed, grace',
    NOW,
    record(CACHED),
    response(500, problem(500, 'Internal Server Error')),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '404 problem+json: failed, grace',
    NOW,
    record(CACHED),
    response(404, problem(404, 'Not Found')),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '500 carrying a good signed refusal is still a failed call (only a 2xx counts)',
    NOW,
    record(CACHED),
    response(500, ANSWER_REFUSAL),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    'network failure with a valid cache: grace',
    NOW,
    record(CACHED),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    'timeout with a valid cache: grace',
    NOW,
    record(CACHED),
    TIMEOUT,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    'timeout with a cached refusal in grace: it still stops the product',
    NOW,
    record(CACHED_REFUSAL),
    TIMEOUT,
    AFTER_CALL,
    use('grace', CACHED_REFUSAL.donnees, false, record(CACHED_REFUSAL, 1, NOW + 300)),
  ],

  // --- Failed calls: lapsed -----------------------------------------------------------------
  [
    'network failure with no cache: lapsed, runs, back-off starts',
    NOW,
    null,
    NETWORK,
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 1, NOW + 300)),
  ],
  [
    'failure with a cached verdict past grace: lapsed, the verdict is kept on file',
    GRACE_END + DAY,
    record(CACHED),
    NETWORK,
    AFTER_CALL,
    use('lapsed', reseau(GRACE_END + DAY), true, record(CACHED, 1, GRACE_END + DAY + 300)),
  ],
  [
    'failure at emis + sursis == now: lapsed',
    GRACE_END,
    record(CACHED),
    TIMEOUT,
    AFTER_CALL,
    use('lapsed', reseau(GRACE_END), true, record(CACHED, 1, GRACE_END + 300)),
  ],
  [
    'failure at emis + sursis == now + 1: grace',
    GRACE_END - 1,
    record(CACHED),
    TIMEOUT,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, GRACE_END - 1 + 300)),
  ],
  [
    'failure with a garbage cache: lapsed, the garbage is not written back',
    NOW,
    'corrupt',
    NETWORK,
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 1, NOW + 300)),
  ],
  [
    'failure with a tampered cache that counted 3 failures: counts from zero, envelope dropped',
    NOW,
    record(tampered(CACHED, { ok: false }), 3, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 1, NOW + 300)),
  ],
  [
    'failure with no verdict ever and two failures before: lapsed, third failure',
    NOW,
    record(null, 2, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 3, NOW + 1200)),
  ],
  [
    'failure for a client without produit: lapsed verdict has no produit',
    NOW,
    null,
    NETWORK,
    { hote: HOTE, nonce: NONCE },
    use('lapsed', reseau(NOW, { hote: HOTE }), true, record(null, 1, NOW + 300)),
  ],
  [
    'forged 200 with no cache: lapsed (runs, as on any network failure)',
    NOW,
    null,
    response(200, tampered(ANSWER_REFUSAL, { ok: true, motif: '', quand: '' })),
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 1, NOW + 300)),
  ],

  // --- Back-off schedule: 5 min doubling to 1 h ------------------------------------------------
  [
    '1st failure waits 300 s',
    NOW,
    record(CACHED, 0, 0),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '2nd failure waits 600 s',
    NOW,
    record(CACHED, 1, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 2, NOW + 600)),
  ],
  [
    '3rd failure waits 1200 s',
    NOW,
    record(CACHED, 2, NOW - 1),
    TIMEOUT,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 3, NOW + 1200)),
  ],
  [
    '4th failure waits 2400 s',
    NOW,
    record(CACHED, 3, NOW - 1),
    response(503, problem(503, 'Service Unavailable')),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 4, NOW + 2400)),
  ],
  [
    '5th failure waits 3600 s (the cap)',
    NOW,
    record(CACHED, 4, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 5, NOW + 3600)),
  ],
  [
    '6th failure waits 3600 s',
    NOW,
    record(CACHED, 5, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 6, NOW + 3600)),
  ],
  [
    '41st failure waits 3600 s',
    NOW,
    record(CACHED, 40, NOW - 1),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 41, NOW + 3600)),
  ],
  [
    'a failure called during back-off still counts',
    NOW,
    record(CACHED, 1, NOW + 200),
    NETWORK,
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 2, NOW + 600)),
  ],

  // --- 429 and Retry-After (RFC 9110 10.2.3), clamped to [1, 3600] ------------------------------
  [
    '429 with Retry-After: 120 waits 120 s',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), '120'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 120)),
  ],
  [
    '429 with an HTTP-date Retry-After 15 min ahead waits 900 s',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), 'Sat, 03 Jan 2026 00:15:00 GMT'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 900)),
  ],
  [
    '429 with a garbage Retry-After: the schedule (3rd failure, 1200 s)',
    NOW,
    record(CACHED, 2, NOW - 1),
    response(429, problem(429, 'Too Many Requests'), 'soon'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 3, NOW + 1200)),
  ],
  [
    '429 without Retry-After: the schedule',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), null),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
  [
    '429 with Retry-After: 0 waits at least 1 s',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), '0'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 1)),
  ],
  [
    '429 with Retry-After: 86400 waits at most 3600 s',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), '86400'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 3600)),
  ],
  [
    '429 with an HTTP-date in the past waits 1 s',
    NOW,
    record(CACHED),
    response(429, problem(429, 'Too Many Requests'), 'Fri, 02 Jan 2026 23:00:00 GMT'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 1)),
  ],
  [
    '429 overrides the schedule even when shorter (6th failure, 120 s)',
    NOW,
    record(CACHED, 5, NOW - 1),
    response(429, problem(429, 'Too Many Requests'), '120'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 6, NOW + 120)),
  ],
  [
    '429 with no cache: lapsed, never a refusal',
    NOW,
    null,
    response(429, problem(429, 'Too Many Requests'), '120'),
    AFTER_CALL,
    use('lapsed', reseau(NOW), true, record(null, 1, NOW + 120)),
  ],
  [
    'Retry-After on a 503 is not honoured: the schedule',
    NOW,
    record(CACHED),
    response(503, problem(503, 'Service Unavailable'), '5'),
    AFTER_CALL,
    use('grace', CACHED.donnees, true, record(CACHED, 1, NOW + 300)),
  ],
];

const cases = table.map(([name, now, cache, outcome, expect, result]) => ({
  name,
  now,
  cache,
  ...(outcome === undefined ? {} : { outcome }),
  expect,
  result,
}));

const names = new Set(cases.map((c) => c.name));
if (names.size !== cases.length) throw new Error('case names must be unique');

const file = {
  covers:
    'The client cache state machine (docs/protocol.md#states, docs/protocol.md#back-off): fresh / refreshed / grace / lapsed from (cache file, call outcome, now), what the product uses, whether it runs, and what the client writes back; the back-off after a failed call (5 min doubling to 1 h; Retry-After on 429, clamped to [1, 3600]).',
  consumers: ['@licence/core (TypeScript)', 'packages/client-php (PHP)'],
  notes: [
    'Times are integer seconds since the epoch. `now` is the client clock.',
    '`trustedPublicKeys` (raw 32-byte Ed25519 keys, base64) applies to every case: the primary TEST ONLY key and a second one for rotation. The seeds are those of signatures.json ("TEST ONLY - never sign real data", "TEST ONLY - second key, rotation"); "untrusted" cases are signed with "TEST ONLY - an attacker\'s seed!!". Signatures were computed with node:crypto; every expected result was written by hand from the rules.',
    '`cache` is the parsed cache file exactly as read from disk, trusted for nothing: a record {envelope, failures, retryAt}, null (no file) or garbage. Decode JSON objects as objects and arrays as arrays (a PHP client must keep [] and {} apart).',
    'A cached envelope is used only if it verifies for expect.hote and expect.produit (never the nonce: it belongs to the call that fetched it). A cache that is not a well-formed record (failures and retryAt non-negative integers, envelope null or an object) or whose envelope does not verify counts as no cache at all, back-off included, and is never written back.',
    '`outcome` absent: the client asks "may I use the cache or must I call?". Present: the call was made with expect.nonce. `status` is the HTTP status, `body` the parsed JSON body (null when none), `retryAfter` the raw Retry-After header.',
    '`result.action` "call": make the call (then run the step again with its outcome). "use": `donnees` is the verdict to act on, `runs` whether the product runs (donnees.ok, except true when lapsed: `reseau` never blocks), `store` the record to write atomically, or null to leave the file as it is. Compare `store` deeply; member order is not significant.',
    'A successful call stores only {donnees, signature} of the response, with failures 0 and retryAt 0. A failed call stores the valid cached envelope (or null), failures + 1, and retryAt = now + back-off.',
    'A stored retryAt more than 3600 s ahead of now is cut to now + 3600 and written back (store is then not null), so that a tampered file or a clock that went back cannot silence the client for more than an hour.',
  ],
  trustedPublicKeys: [keys.primary.publicKey, keys.rotation.publicKey],
  cases,
};

writeFileSync(new URL('../cases/client-states.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
console.log(`client-states.json: ${cases.length} cases`);
