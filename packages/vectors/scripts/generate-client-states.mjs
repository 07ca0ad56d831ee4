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

/** How a positive verdict opens (a refusal changes ok, motif and quand through `fields`). */
const POSITIVE = { ok: true, motif: '', domaine: 'exemple.fr', essai: false, quand: '' };
/** The verdict an earlier call cached, issued at EMIS, with `fields` changed or added. */
const verdict = (fields = {}) => ({
  ...POSITIVE,
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

// A site configured as http://www.www.boutique.fr/ (docs/protocol.md#hosts-in-clients): the client
// sends that value and expects it normalised once, www.boutique.fr (one leading www. goes per
// pass). boutique.fr, that value normalised twice, is what a client sending its hote got back.
const WWW_SITE = 'http://www.www.boutique.fr/';
const WWW_HOTE = 'www.boutique.fr';
const WWW_BEFORE_CALL = { hote: WWW_HOTE, produit: PRODUIT };
const WWW_AFTER_CALL = { hote: WWW_HOTE, produit: PRODUIT, nonce: NONCE };
const ANSWER_WWW = answer({ hote: WWW_HOTE, domaine: 'boutique.fr' });
const ANSWER_WWW_TWICE = answer({ hote: 'boutique.fr', domaine: 'boutique.fr' });

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
/** No usable key (docs/protocol.md#no-usable-key): made up like `reseau`, but the product does not run. */
const noKey = (motif, now = NOW) => use('no_key', { ...reseau(now), motif }, false, null);
/** Fresh: the cached verdict, nothing written. */
const fresh = (envelope, runs) => use('fresh', envelope.donnees, runs, null);
/** Grace: the cached verdict, and what is written back (null: nothing). */
const grace = (envelope, runs, store = null) => use('grace', envelope.donnees, runs, store);
/** Lapsed at `now`: a `reseau` verdict that runs, and what is written back (null: nothing). */
const lapsed = (now, store = null, expect = BEFORE_CALL) => use('lapsed', reseau(now, expect), true, store);

// ---------------------------------------------------------------------------------------------
// Rows: [name, now, cache, outcome (undefined: none), expect, result, host, cle (absent: none)].
// The builders below spell the parts a group of rows shares once; each row still states its own
// expected result.

/** No call yet: may the client use its cache, or must it call? */
function ask(name, now, cache, result, expect = BEFORE_CALL, host = undefined) {
  return [name, now, cache, undefined, expect, result, host];
}
/** The call made with NONCE ended with `outcome`. */
function answered(name, now, cache, outcome, result, expect = AFTER_CALL, host = undefined) {
  return [name, now, cache, outcome, expect, result, host];
}
/** A 2xx carrying `envelope` at NOW: refreshed, the envelope stored, the back-off cleared. */
const refreshedBy = (name, cache, status, envelope, runs) =>
  answered(name, NOW, cache, response(status, envelope), use('refreshed', envelope.donnees, runs, record(envelope)));
/** A failed call at NOW with a valid stale cache: grace, `failures` counted, the next call at `retryAt`. */
const backOff = (name, cache, outcome, failures, retryAt) =>
  answered(name, NOW, cache, outcome, grace(CACHED, true, record(CACHED, failures, retryAt)));
/** The first failed call at NOW with a valid stale cache: grace, one failure, the next call in 300 s. */
const failedInGrace = (name, outcome) => backOff(name, record(CACHED), outcome, 1, NOW + 300);
/** The buyer's key, as handed to the client: `cle` is any JSON value. */
function keyed(name, cle, now, cache, outcome, result) {
  return [name, now, cache, outcome, outcome === undefined ? BEFORE_CALL : AFTER_CALL, result, undefined, cle];
}
/** A key issued by the service, as a buyer pastes it. */
const A_KEY = '7q2mx-k4p9t-zb8rw-3hjne-6vc0a';
const tooManyRequests = (retryAfter) => response(429, problem(429, 'Too Many Requests'), retryAfter);
const serviceUnavailable = (retryAfter) => response(503, problem(503, 'Service Unavailable'), retryAfter);
const forgedRefusal = tampered(ANSWER_REFUSAL, { ok: true, motif: '', quand: '' });

const table = [
  // --- The table of docs/protocol.md#states, without a call outcome ------------------------
  ask('fresh: cached positive verdict before revalider, no call', FRESH, record(CACHED), fresh(CACHED, true)),
  ask('fresh: one second before revalider', EMIS + DAY - 1, record(CACHED), fresh(CACHED, true)),
  ask('stale: revalider == now, must call', EMIS + DAY, record(CACHED), CALL),
  ask('stale: past revalider, inside grace, no back-off: call', NOW, record(CACHED), CALL),
  ask('stale: back-off already over (retryAt in the past): call', NOW, record(CACHED, 2, NOW - 1), CALL),
  ask('no cache file: call', NOW, null, CALL),
  ask(
    'fresh: a cached signed refusal stops the product at once',
    FRESH,
    record(CACHED_REFUSAL),
    fresh(CACHED_REFUSAL, false),
  ),
  ask(
    'fresh: cache signed by the second trusted key (key rotation)',
    FRESH,
    record(CACHED_ROTATION),
    fresh(CACHED_ROTATION, true),
  ),
  ask('fresh: cached verdict fetched without a nonce', FRESH, record(CACHED_NO_NONCE), fresh(CACHED_NO_NONCE, true)),
  ask(
    'fresh: the nonce of a new call is never asked of a cached verdict',
    FRESH,
    record(CACHED),
    fresh(CACHED, true),
    AFTER_CALL,
  ),
  ask(
    'fresh: a client without produit uses a verdict without produit',
    FRESH,
    record(CACHED_NO_PRODUIT),
    fresh(CACHED_NO_PRODUIT, true),
    { hote: HOTE },
  ),
  ask('fresh wins over a pending back-off', FRESH, record(CACHED, 2, FRESH + 600), fresh(CACHED, true)),

  // --- Back-off: no call before retryAt --------------------------------------------------------
  ask('back-off with a valid stale cache: grace, no call', NOW, record(CACHED, 1, NOW + 200), grace(CACHED, true)),
  ask('back-off ends when now == retryAt: call', NOW, record(CACHED, 1, NOW), CALL),
  ask('back-off with no verdict ever stored: lapsed, no call', NOW, record(null, 1, NOW + 200), lapsed(NOW)),
  ask(
    'back-off, cached verdict past grace: lapsed, no call',
    GRACE_END + 100,
    record(CACHED, 3, GRACE_END + 200),
    lapsed(GRACE_END + 100),
  ),
  ask('back-off, emis + sursis == now: lapsed', GRACE_END, record(CACHED, 3, GRACE_END + 100), lapsed(GRACE_END)),
  ask(
    'back-off, emis + sursis == now + 1: grace',
    GRACE_END - 1,
    record(CACHED, 3, GRACE_END + 100),
    grace(CACHED, true),
  ),
  ask(
    'back-off with a cached refusal in grace: it still stops the product',
    NOW,
    record(CACHED_REFUSAL, 1, NOW + 100),
    grace(CACHED_REFUSAL, false),
  ),
  ask(
    "back-off: grace ends at the verdict's own sursis, not at 30 days",
    EMIS + DAY + 10,
    record(CACHED_SHORT_SURSIS, 1, EMIS + DAY + 100),
    lapsed(EMIS + DAY + 10),
  ),
  ask(
    'back-off: a retryAt ten days ahead is cut to now + 3600 and written back',
    NOW,
    record(CACHED, 2, NOW + 10 * DAY),
    grace(CACHED, true, record(CACHED, 2, NOW + 3600)),
  ),
  ask('back-off: retryAt == now + 3600 is kept as it is', NOW, record(CACHED, 5, NOW + 3600), grace(CACHED, true)),
  ask(
    'back-off: retryAt == now + 3601 is cut by one second',
    NOW,
    record(CACHED, 5, NOW + 3601),
    grace(CACHED, true, record(CACHED, 5, NOW + 3600)),
  ),
  ask(
    'back-off: a far retryAt with no verdict: lapsed, cut written back',
    NOW,
    record(null, 5, 4102444800),
    lapsed(NOW, record(null, 5, NOW + 3600)),
  ),

  // --- Cache files that are not trusted: as if there were none ---------------------------------
  ask(
    'tampered cache: revalider pushed a year ahead after signing: call',
    NOW,
    record(tampered(CACHED, { revalider: EMIS + 365 * DAY })),
    CALL,
  ),
  ask(
    'tampered cache: a fresh refusal turned into ok: call',
    FRESH,
    record(tampered(CACHED_REFUSAL, { ok: true, motif: '', quand: '' })),
    CALL,
  ),
  ask(
    'tampered cache: its back-off is ignored too: call',
    NOW,
    record(tampered(CACHED, { domaine: 'autre.fr' }), 1, NOW + 200),
    CALL,
  ),
  ask('cache signed by an untrusted key: call', FRESH, record(CACHED_UNTRUSTED), CALL),
  ask('cache for another host: call', FRESH, record(CACHED_OTHER_HOST), CALL),
  ask('cache for another product: call', FRESH, record(CACHED_OTHER_PRODUIT), CALL),
  ask('cache without produit while a product is expected: call', FRESH, record(CACHED_NO_PRODUIT), CALL),
  ask('cache with a truncated signature (63 bytes): call', FRESH, record(CACHED_TRUNCATED), CALL),
  ask('cache whose envelope has no signature: call', FRESH, record({ donnees: CACHED.donnees }), CALL),
  ask('cache whose signed donnees lack a field (sursis): call', FRESH, record(CACHED_NOT_A_VERDICT), CALL),

  // --- Garbage cache files -------------------------------------------------------------------
  ask('garbage cache: a string: call', FRESH, 'corrupt', CALL),
  ask('garbage cache: a number: call', FRESH, 42, CALL),
  ask('garbage cache: an array holding a record: call', FRESH, [record(CACHED)], CALL),
  ask('garbage cache: an empty object: call', FRESH, {}, CALL),
  ask('garbage cache: the bare envelope instead of a record: call', FRESH, CACHED, CALL),
  ask('garbage cache: failures missing: call', FRESH, { envelope: CACHED, retryAt: 0 }, CALL),
  ask('garbage cache: retryAt missing: call', FRESH, { envelope: CACHED, failures: 0 }, CALL),
  ask('garbage cache: envelope missing: call', NOW, { failures: 1, retryAt: NOW + 200 }, CALL),
  ask('garbage cache: negative failures: call', FRESH, record(CACHED, -1, 0), CALL),
  ask('garbage cache: fractional failures: call', FRESH, record(CACHED, 1.5, 0), CALL),
  ask('garbage cache: retryAt as a string: call', NOW, record(null, 1, String(NOW + 200)), CALL),
  ask('garbage cache: envelope is a string: call', FRESH, record('{"donnees":{}}'), CALL),
  ask('garbage cache: envelope is an empty object: call', FRESH, record({}), CALL),

  // --- Stale + the service answers: refreshed ------------------------------------------------
  refreshedBy('stale + 200 signed verdict: refreshed, stored, back-off cleared', record(CACHED), 200, ANSWER, true),
  refreshedBy('no cache + 200 signed verdict: refreshed', null, 200, ANSWER, true),
  refreshedBy('garbage cache + 200 signed verdict: refreshed, garbage replaced', 'corrupt', 200, ANSWER, true),
  refreshedBy(
    'a refreshed refusal replaces a positive cache and stops the product',
    record(CACHED),
    200,
    ANSWER_REFUSAL,
    false,
  ),
  refreshedBy('a signed inconnue with no cache stops the product at once', null, 200, ANSWER_UNKNOWN, false),
  refreshedBy('a refreshed positive verdict replaces a cached refusal', record(CACHED_REFUSAL), 200, ANSWER, true),
  refreshedBy(
    '200 signed by the second trusted key (key rotation): refreshed',
    record(CACHED),
    200,
    ANSWER_ROTATION,
    true,
  ),
  refreshedBy('success after five failures resets failures and retryAt', record(CACHED, 5, NOW - 1), 200, ANSWER, true),
  refreshedBy('201 with a good envelope is a 2xx: refreshed', record(CACHED), 201, ANSWER, true),

  // --- Failed calls: grace with a valid cache ---------------------------------------------------
  failedInGrace('200 for another host: failed, grace', response(200, answer({ hote: 'autre-boutique.fr' }))),
  failedInGrace('200 for another product: failed, grace', response(200, answer({ produit: 'autre-theme' }))),
  failedInGrace(
    '200 with the nonce of an old call (a replay): failed, grace',
    response(200, answer({ nonce: OLD_NONCE })),
  ),
  failedInGrace(
    '200 without the nonce that was sent: failed, grace',
    response(200, signed(without(ANSWER.donnees, 'nonce'))),
  ),
  failedInGrace(
    '200 without produit while one was sent: failed, grace',
    response(200, signed(without(ANSWER.donnees, 'produit'))),
  ),
  failedInGrace('200 with no signature: failed, grace', response(200, { donnees: ANSWER.donnees })),
  failedInGrace(
    '200 with a signature that is not base64: failed, grace',
    response(200, { donnees: ANSWER.donnees, signature: '%%% not base64 %%%' }),
  ),
  failedInGrace('200 signed by an untrusted key: failed, grace', response(200, answer({}, 'untrusted'))),
  answered(
    '200 forged: a refusal turned into ok cannot unblock a cached refusal',
    NOW,
    record(CACHED_REFUSAL),
    response(200, forgedRefusal),
    grace(CACHED_REFUSAL, false, record(CACHED_REFUSAL, 1, NOW + 300)),
  ),
  failedInGrace('200 with a body that is a JSON string: failed, grace', response(200, 'ok')),
  failedInGrace('200 with no body (null): failed, grace', response(200, null)),
  failedInGrace('204 without a body: failed, grace', response(204, null)),
  failedInGrace('500 problem+json: failed, grace', response(500, problem(500, 'Internal Server Error'))),
  failedInGrace('404 problem+json: failed, grace', response(404, problem(404, 'Not Found'))),
  failedInGrace(
    '500 carrying a good signed refusal is still a failed call (only a 2xx counts)',
    response(500, ANSWER_REFUSAL),
  ),
  failedInGrace('network failure with a valid cache: grace', NETWORK),
  failedInGrace('timeout with a valid cache: grace', TIMEOUT),
  answered(
    'timeout with a cached refusal in grace: it still stops the product',
    NOW,
    record(CACHED_REFUSAL),
    TIMEOUT,
    grace(CACHED_REFUSAL, false, record(CACHED_REFUSAL, 1, NOW + 300)),
  ),

  // --- Failed calls: lapsed -----------------------------------------------------------------
  answered(
    'network failure with no cache: lapsed, runs, back-off starts',
    NOW,
    null,
    NETWORK,
    lapsed(NOW, record(null, 1, NOW + 300)),
  ),
  answered(
    'failure with a cached verdict past grace: lapsed, the verdict is kept on file',
    GRACE_END + DAY,
    record(CACHED),
    NETWORK,
    lapsed(GRACE_END + DAY, record(CACHED, 1, GRACE_END + DAY + 300)),
  ),
  answered(
    'failure at emis + sursis == now: lapsed',
    GRACE_END,
    record(CACHED),
    TIMEOUT,
    lapsed(GRACE_END, record(CACHED, 1, GRACE_END + 300)),
  ),
  answered(
    'failure at emis + sursis == now + 1: grace',
    GRACE_END - 1,
    record(CACHED),
    TIMEOUT,
    grace(CACHED, true, record(CACHED, 1, GRACE_END - 1 + 300)),
  ),
  answered(
    'failure with a garbage cache: lapsed, the garbage is not written back',
    NOW,
    'corrupt',
    NETWORK,
    lapsed(NOW, record(null, 1, NOW + 300)),
  ),
  answered(
    'failure with a tampered cache that counted 3 failures: counts from zero, envelope dropped',
    NOW,
    record(tampered(CACHED, { ok: false }), 3, NOW - 1),
    NETWORK,
    lapsed(NOW, record(null, 1, NOW + 300)),
  ),
  answered(
    'failure with no verdict ever and two failures before: lapsed, third failure',
    NOW,
    record(null, 2, NOW - 1),
    NETWORK,
    lapsed(NOW, record(null, 3, NOW + 1200)),
  ),
  answered(
    'failure for a client without produit: lapsed verdict has no produit',
    NOW,
    null,
    NETWORK,
    lapsed(NOW, record(null, 1, NOW + 300), { hote: HOTE }),
    { hote: HOTE, nonce: NONCE },
  ),
  answered(
    'forged 200 with no cache: lapsed (runs, as on any network failure)',
    NOW,
    null,
    response(200, forgedRefusal),
    lapsed(NOW, record(null, 1, NOW + 300)),
  ),

  // --- Back-off schedule: 5 min doubling to 1 h ------------------------------------------------
  backOff('1st failure waits 300 s', record(CACHED, 0, 0), NETWORK, 1, NOW + 300),
  backOff('2nd failure waits 600 s', record(CACHED, 1, NOW - 1), NETWORK, 2, NOW + 600),
  backOff('3rd failure waits 1200 s', record(CACHED, 2, NOW - 1), TIMEOUT, 3, NOW + 1200),
  backOff('4th failure waits 2400 s', record(CACHED, 3, NOW - 1), serviceUnavailable(), 4, NOW + 2400),
  backOff('5th failure waits 3600 s (the cap)', record(CACHED, 4, NOW - 1), NETWORK, 5, NOW + 3600),
  backOff('6th failure waits 3600 s', record(CACHED, 5, NOW - 1), NETWORK, 6, NOW + 3600),
  backOff('41st failure waits 3600 s', record(CACHED, 40, NOW - 1), NETWORK, 41, NOW + 3600),
  backOff('a failure called during back-off still counts', record(CACHED, 1, NOW + 200), NETWORK, 2, NOW + 600),

  // --- 429 and Retry-After (RFC 9110 10.2.3), clamped to [1, 3600] ------------------------------
  backOff('429 with Retry-After: 120 waits 120 s', record(CACHED), tooManyRequests('120'), 1, NOW + 120),
  backOff(
    '429 with an HTTP-date Retry-After 15 min ahead waits 900 s',
    record(CACHED),
    tooManyRequests('Sat, 03 Jan 2026 00:15:00 GMT'),
    1,
    NOW + 900,
  ),
  backOff(
    '429 with a garbage Retry-After: the schedule (3rd failure, 1200 s)',
    record(CACHED, 2, NOW - 1),
    tooManyRequests('soon'),
    3,
    NOW + 1200,
  ),
  backOff('429 without Retry-After: the schedule', record(CACHED), tooManyRequests(null), 1, NOW + 300),
  backOff('429 with Retry-After: 0 waits at least 1 s', record(CACHED), tooManyRequests('0'), 1, NOW + 1),
  backOff('429 with Retry-After: 86400 waits at most 3600 s', record(CACHED), tooManyRequests('86400'), 1, NOW + 3600),
  backOff(
    '429 with an HTTP-date in the past waits 1 s',
    record(CACHED),
    tooManyRequests('Fri, 02 Jan 2026 23:00:00 GMT'),
    1,
    NOW + 1,
  ),
  backOff(
    '429 overrides the schedule even when shorter (6th failure, 120 s)',
    record(CACHED, 5, NOW - 1),
    tooManyRequests('120'),
    6,
    NOW + 120,
  ),
  answered(
    '429 with no cache: lapsed, never a refusal',
    NOW,
    null,
    tooManyRequests('120'),
    lapsed(NOW, record(null, 1, NOW + 120)),
  ),
  backOff('Retry-After on a 503 is not honoured: the schedule', record(CACHED), serviceUnavailable('5'), 1, NOW + 300),

  // --- The site's host as configured, sent as is (docs/protocol.md#hosts-in-clients) ------------
  ask(
    'a www.www. site with no cache: call, sending its host as configured',
    NOW,
    null,
    CALL,
    WWW_BEFORE_CALL,
    WWW_SITE,
  ),
  answered(
    'a www.www. site: 200 naming its host normalised once (www.boutique.fr): refreshed',
    NOW,
    null,
    response(200, ANSWER_WWW),
    use('refreshed', ANSWER_WWW.donnees, true, record(ANSWER_WWW)),
    WWW_AFTER_CALL,
    WWW_SITE,
  ),
  answered(
    'a www.www. site: 200 naming its host normalised twice (boutique.fr): failed, lapsed',
    NOW,
    null,
    response(200, ANSWER_WWW_TWICE),
    lapsed(NOW, record(null, 1, NOW + 300), WWW_AFTER_CALL),
    WWW_AFTER_CALL,
    WWW_SITE,
  ),
  ask(
    'a www.www. site: its cached verdict for www.boutique.fr is fresh',
    NOW + 3600,
    record(ANSWER_WWW),
    fresh(ANSWER_WWW, true),
    WWW_BEFORE_CALL,
    WWW_SITE,
  ),

  // --- The buyer's key (docs/protocol.md#no-usable-key: no_key) -------------------------------
  keyed('no key: an empty string', '', NOW, null, undefined, noKey('sans_cle')),
  keyed('no key: only white space', ' \t\r\n ', NOW, null, undefined, noKey('sans_cle')),
  keyed('no key: null (a setting never saved)', null, NOW, null, undefined, noKey('sans_cle')),
  keyed("no key: false (WordPress's get_option default)", false, NOW, null, undefined, noKey('sans_cle')),
  keyed('no key: a number is not a key entered', 123, NOW, null, undefined, noKey('sans_cle')),
  keyed('no key: an array', [A_KEY], NOW, null, undefined, noKey('sans_cle')),
  keyed('no key: an object', { cle: A_KEY }, NOW, null, undefined, noKey('sans_cle')),
  keyed('not a key: only dashes', '----', NOW, null, undefined, noKey('cle_invalide')),
  keyed('not a key: a no-break space is not ASCII white space', '\u00a0', NOW, null, undefined, noKey('cle_invalide')),
  keyed(
    'not a key: 24 letters and digits',
    '7Q2MX-K4P9T-ZB8RW-3HJNE-6VC0',
    NOW,
    null,
    undefined,
    noKey('cle_invalide'),
  ),
  keyed(
    'not a key: 26 letters and digits',
    '7Q2MX-K4P9T-ZB8RW-3HJNE-6VC0AA',
    NOW,
    null,
    undefined,
    noKey('cle_invalide'),
  ),
  keyed(
    'not a key: an O, which no key holds',
    '7Q2MX-K4P9T-ZB8RW-3HJNE-6VCOA',
    NOW,
    null,
    undefined,
    noKey('cle_invalide'),
  ),
  keyed(
    'not a key: a real key padded past 1024 characters',
    `${A_KEY}${' '.repeat(1024 - A_KEY.length + 1)}`,
    NOW,
    null,
    undefined,
    noKey('cle_invalide'),
  ),
  keyed(
    'no key: a fresh cached verdict is not used, nothing written',
    '',
    FRESH,
    record(CACHED),
    undefined,
    noKey('sans_cle', FRESH),
  ),
  keyed(
    'no key: a cached verdict in back-off is not used either',
    null,
    NOW,
    record(CACHED, 2, NOW + 600),
    undefined,
    noKey('sans_cle'),
  ),
  keyed('not a key, whatever a call returned', '----', NOW, null, response(200, ANSWER), noKey('cle_invalide')),
  keyed('a key as pasted (spaces, dashes, lower case) with no cache: call', ` ${A_KEY}\n`, NOW, null, undefined, CALL),
  keyed(
    'a key 1024 characters long with its padding is usable: fresh',
    `${A_KEY}${' '.repeat(1024 - A_KEY.length)}`,
    FRESH,
    record(CACHED),
    undefined,
    fresh(CACHED, true),
  ),
];

const cases = table.map(([name, now, cache, outcome, expect, result, host, ...cle]) => ({
  name,
  now,
  cache,
  ...(outcome === undefined ? {} : { outcome }),
  ...(host === undefined ? {} : { host }),
  // A row without an eighth member has no `cle`: null is a key value like any other.
  ...(cle.length === 0 ? {} : { cle: cle[0] }),
  expect,
  result,
}));

const names = new Set(cases.map((c) => c.name));
if (names.size !== cases.length) throw new Error('case names must be unique');

const file = {
  covers:
    'The client cache state machine (docs/protocol.md#states, docs/protocol.md#back-off): fresh / refreshed / grace / lapsed from (cache file, call outcome, now), no_key from the key the client holds, what the product uses, whether it runs, and what the client writes back; the back-off after a failed call (5 min doubling to 1 h; Retry-After on 429, clamped to [1, 3600]).',
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
    "`host`, when present, is the site's host as the client is configured with it: the client sends it as is as the request's `url`, and expect.hote is its normalisation, once (hosts.json). Normalising is not idempotent (`http://www.www.boutique.fr/` gives `www.boutique.fr`, which gives `boutique.fr`), so a client that sent its hote would get answers for another host (docs/protocol.md#hosts-in-clients). Absent: the client is configured with expect.hote itself, which normalises to itself.",
    "`cle`, when present, is the buyer's key as handed to the client, any JSON value (docs/protocol.md#no-usable-key). A key is usable when it is a string that normalises (keys.json: at most 1024 characters, letters and digits kept, upper case) to 25 characters of the Crockford alphabet. Otherwise the state is `no_key` before anything else, whatever the cache or the outcome: no call, nothing written (`store` null), `runs` false, and `donnees` made up like `reseau` with `motif` `sans_cle` (not a string, or nothing but ASCII white space: space, tab, CR, LF, VT, FF) or `cle_invalide` (anything else). Absent: the client holds a usable key; the vectors are about its cache.",
  ],
  trustedPublicKeys: [keys.primary.publicKey, keys.rotation.publicKey],
  cases,
};

writeFileSync(new URL('../cases/client-states.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
console.log(`client-states.json: ${cases.length} cases`);
