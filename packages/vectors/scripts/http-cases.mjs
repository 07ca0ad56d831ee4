// The source of cases/http.json: scenarios written by hand from the rules of docs/protocol.md.
// This script only expands shorthands (repeated steps, long bodies) and writes the JSON, so that
// the file stays plain data for every adapter's runner (Koa now, Lambda later).
// Run: node scripts/http-cases.mjs
import { writeFileSync } from 'node:fs';

const T0 = 1795342440; // 2026-11-22T10:14:00Z: every scenario starts here
const ok = (donnees) => ({ status: 200, donnees: { ok: true, motif: '', quand: '', ...donnees } });
const refused = (motif, donnees) => ({ status: 200, donnees: { ok: false, essai: false, motif, ...donnees } });
const problem = (status, type, headers) => ({ status, problem: type, ...(headers ? { headers } : {}) });
const post = (body, extra = {}) => ({ request: { method: 'POST', path: '/api/licence', body, ...extra } });
const check = (body, expect, extra = {}) => ({ ...post(body, extra), expect });
/** A request with a key no step issued, for exemple.fr: for the checks that come before the key's. */
const unknownKey = (expect, extra) => check({ cle: 'AAAAA', url: 'exemple.fr' }, expect, extra);
const product = (id, author = 'atelier') => ({
  request: { method: 'POST', path: '/admin/products', body: { id, author, name: `Produit ${id}` } },
  expect: { status: 201 },
});
const issue = (save, body) => ({
  request: { method: 'POST', path: '/admin/keys', body },
  expect: { status: 201, body: { produit: body.produit, kind: body.kind } },
  save: { [save]: 'cle' },
});
const admin = (method, path, body, expect, save) => ({
  request: { method, path, ...(body === undefined ? {} : { body }) },
  expect,
  ...(save ? { save } : {}),
});
const buyer = (save, produit = 'theme', sites) => issue(save, { produit, kind: 'buyer', ...(sites ? { sites } : {}) });
const base = [product('theme'), buyer('k')];
const at = (seconds) => ({ emis: seconds, revalider: seconds + 86400, sursis: 2592000 });
/** ISO 8601 UTC to the second of clockStart, as the admin API writes times (docs/protocol.md#administration). */
const at0 = '2026-11-22T10:14:00Z';
/** An author added by the operator (docs/protocol.md#authors), created at the clock's time (clockStart here). */
const author = (id, name) =>
  admin('POST', '/admin/authors', { id, name }, { status: 201, body: { id, name, created: at0 } });
/**
 * A token of `authorId`, made by the operator: `{save}` keeps the token, shown this once, and
 * `{save_id}` its id.
 */
const authorToken = (authorId, save, label) => ({
  request: { method: 'POST', path: `/admin/authors/${authorId}/tokens`, ...(label ? { body: { label } } : {}) },
  expect: { status: 201 },
  save: { [save]: 'token', [`${save}_id`]: 'id' },
});
/** The step sent with the author token saved as `token` instead of the operator's. */
const as = (token, step) => ({ ...step, request: { ...step.request, auth: `{${token}}` } });
const forbidden = problem(403, 'forbidden');
const meAtelier = { status: 200, body: { role: 'author', author: { id: 'atelier', name: 'Atelier', created: at0 } } };
/** One UTC day of activity (docs/protocol.md#activity): zero unless counted. */
const day = (date, counts = {}) => ({ date, ok: 0, essai: 0, refusals: {}, ...counts });
/** `count` days without verdicts from `first` on. */
const zeroDays = (first, count) =>
  Array.from({ length: count }, (_, index) =>
    day(new Date(Date.parse(`${first}T00:00:00Z`) + index * 86400000).toISOString().slice(0, 10)),
  );
/** GET a product's activity (`query`: '' or '?days=N'), expecting exactly `days`. */
const activity = (produit, query, days) =>
  admin('GET', `/admin/products/${produit}/activity${query}`, undefined, {
    status: 200,
    body: { product: produit, days },
  });
/** 2026-11-22 of the activity scenario: two ok, one essai (a staging host), one autre_domaine. */
const busyDay = day('2026-11-22', { ok: 2, essai: 1, refusals: { autre_domaine: 1 } });
/** ISO 8601 UTC of clockStart plus `seconds`. */
const atPlus = (seconds) => new Date((T0 + seconds) * 1000).toISOString().replace('.000Z', 'Z');
/** A shop's webhook URL, https on a public host name (docs/protocol.md#webhooks, destinations). */
const HOOK_URL = 'https://boutique.exemple.fr/webhooks';
/** Well-formed ids (webhook-ids: `wh_`, `dlv_` and 22 base64url characters) that no step created. */
const NO_WEBHOOK = `wh_${'A'.repeat(22)}`;
const NO_DELIVERY = `dlv_${'A'.repeat(22)}`;
/**
 * `POST /admin/webhooks` with `body`, expecting a 201 whose listed fields are `shown` (id and
 * secret are random: `{save}` keeps the id, `{save}_secret` the secret, shown this once).
 */
const addWebhook = (save, body, shown) =>
  admin('POST', '/admin/webhooks', body, { status: 201, body: shown }, { [save]: 'id', [`${save}_secret`]: 'secret' });
/** An endpoint as GET /admin/webhooks lists it: never its secret. */
const listedWebhook = (id, url, events, author, created) => ({ id: `{${id}}`, url, events, author, created });
/** GET /admin/webhooks, expecting exactly `webhooks`. */
const webhookList = (webhooks) => admin('GET', '/admin/webhooks', undefined, { status: 200, body: { webhooks } });
/** The routes of one endpoint that answer the 404 of a missing one when it is not reached. */
const webhookRoutes = (id) => [
  ['GET', `/admin/webhooks/${id}/deliveries`],
  ['POST', `/admin/webhooks/${id}/secret`],
  ['POST', `/admin/webhooks/${id}/deliveries/${NO_DELIVERY}/retry`],
  ['DELETE', `/admin/webhooks/${id}`],
];
const notFound = problem(404, 'not-found');
const invalid = problem(400, 'invalid-request');

const cases = [
  // ---- docs/protocol.md#verdict, row by row, reached through real admin operations -----------
  {
    name: 'rule 1: an unknown key answers a signed inconnue',
    steps: [
      check(
        { cle: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', url: 'exemple.fr' },
        refused('inconnue', { domaine: '', hote: 'exemple.fr', ...at(T0) }),
      ),
    ],
  },
  {
    name: 'rule 8: a first call binds the registrable domain',
    steps: [
      ...base,
      check(
        { cle: '{k}', url: 'https://www.boutique.exemple.fr/panier' },
        ok({ domaine: 'exemple.fr', essai: false, hote: 'boutique.exemple.fr', ...at(T0) }),
      ),
      admin('GET', '/admin/keys/{k}', undefined, {
        status: 200,
        body: {
          status: 'active',
          domains: [{ domain: 'exemple.fr', firstSeen: '2026-11-22T10:14:00Z', lastSeen: '2026-11-22T10:14:00Z' }],
        },
      }),
    ],
  },
  {
    name: 'rule 7: another subdomain of the bound domain is covered',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr', hote: 'exemple.fr' })),
      { advance: 3600 },
      check(
        { cle: '{k}', url: 'blog.exemple.fr' },
        ok({ domaine: 'exemple.fr', essai: false, hote: 'blog.exemple.fr', ...at(T0 + 3600) }),
      ),
      admin('GET', '/admin/keys/{k}', undefined, {
        status: 200,
        body: {
          domains: [{ domain: 'exemple.fr', firstSeen: '2026-11-22T10:14:00Z', lastSeen: '2026-11-22T11:14:00Z' }],
        },
      }),
    ],
  },
  {
    name: 'rule 9: a one-domain key on another domain answers autre_domaine',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      check(
        { cle: '{k}', url: 'autre.fr' },
        refused('autre_domaine', { domaine: 'exemple.fr', hote: 'autre.fr', quand: '' }),
      ),
    ],
  },
  {
    name: 'rule 9: a full three-domain key names its domains in binding order',
    steps: [
      product('theme'),
      buyer('k', 'theme', 3),
      check({ cle: '{k}', url: 'c.fr' }, ok({ domaine: 'c.fr' })),
      check({ cle: '{k}', url: 'a.fr' }, ok({ domaine: 'a.fr' })),
      check({ cle: '{k}', url: 'b.fr' }, ok({ domaine: 'b.fr' })),
      check({ cle: '{k}', url: 'a.fr' }, ok({ domaine: 'a.fr' })),
      check({ cle: '{k}', url: 'd.fr' }, refused('autre_domaine', { domaine: 'c.fr, a.fr, b.fr', hote: 'd.fr' })),
      admin('GET', '/admin/products/theme/installations', undefined, {
        status: 200,
        body: { produit: 'theme', count: 3 },
      }),
    ],
  },
  {
    name: 'rule 6: a staging host answers essai and binds nothing',
    steps: [
      ...base,
      check(
        { cle: '{k}', url: 'staging.exemple.fr' },
        ok({ domaine: 'exemple.fr', essai: true, hote: 'staging.exemple.fr' }),
      ),
      check({ cle: '{k}', url: 'localhost:8080' }, ok({ domaine: 'localhost', essai: true, hote: 'localhost' })),
      check(
        { cle: '{k}', url: 'boutique.local' },
        ok({ domaine: 'boutique.local', essai: true, hote: 'boutique.local' }),
      ),
      check({ cle: '{k}', url: '192.168.1.20' }, ok({ domaine: '192.168.1.20', essai: true, hote: '192.168.1.20' })),
      check({ cle: '{k}', url: 'autre.fr' }, ok({ domaine: 'autre.fr', essai: false, hote: 'autre.fr' })),
      check({ cle: '{k}', url: 'exemple.fr' }, refused('autre_domaine', { domaine: 'autre.fr', hote: 'exemple.fr' })),
    ],
  },
  {
    // docs/protocol.md#staging-hosts: the key's own product's patterns, matched by whole labels.
    name: "rule 6: a host matching its product's staging pattern answers essai and binds nothing",
    steps: [
      admin(
        'POST',
        '/admin/products',
        { id: 'theme', author: 'atelier', name: 'Produit theme', staging: [' Preview-*.Boutique.fr. '] },
        { status: 201, body: { id: 'theme', staging: ['preview-*.boutique.fr'] } },
      ),
      product('plugin'),
      admin('PATCH', '/admin/products/plugin', { staging: ['*.recette.fr'] }, { status: 200 }),
      buyer('k'),
      check(
        { cle: '{k}', url: 'https://preview-42.boutique.fr/panier' },
        ok({ domaine: 'boutique.fr', essai: true, hote: 'preview-42.boutique.fr' }),
      ),
      admin('GET', '/admin/keys/{k}', undefined, { status: 200, body: { status: 'active', domains: [] } }),
      // Only its leftmost label's text around the `*`: a host that merely contains it is a real site.
      check(
        { cle: '{k}', url: 'mypreview-42.boutique.fr' },
        ok({ domaine: 'boutique.fr', essai: false, hote: 'mypreview-42.boutique.fr' }),
      ),
      admin('GET', '/admin/keys/{k}', undefined, {
        status: 200,
        body: { domains: [{ domain: 'boutique.fr', firstSeen: at0, lastSeen: at0 }] },
      }),
      // Another product's pattern is not this key's.
      check(
        { cle: '{k}', url: 'v2.recette.fr' },
        refused('autre_domaine', { domaine: 'boutique.fr', hote: 'v2.recette.fr' }),
      ),
    ],
  },
  {
    name: 'rule 5: a dev key runs on any host as essai and binds nothing',
    steps: [
      product('theme'),
      issue('dev', { produit: 'theme', kind: 'dev' }),
      check({ cle: '{dev}', url: 'client-un.fr' }, ok({ domaine: 'client-un.fr', essai: true, hote: 'client-un.fr' })),
      check(
        { cle: '{dev}', url: 'client-deux.fr', produit: 'theme' },
        ok({ domaine: 'client-deux.fr', essai: true, hote: 'client-deux.fr', produit: 'theme' }),
      ),
    ],
  },
  {
    name: 'rule 5: a dev key opens every product of its author, even one added later',
    steps: [
      product('theme'),
      issue('dev', { produit: 'theme', kind: 'dev' }),
      product('plugin'),
      check({ cle: '{dev}', url: 'exemple.fr', produit: 'plugin' }, ok({ essai: true, produit: 'plugin' })),
    ],
  },
  {
    name: "rule 2: a dev key on another author's product answers inconnue",
    steps: [
      product('theme', 'atelier'),
      product('autre', 'concurrent'),
      issue('dev', { produit: 'theme', kind: 'dev' }),
      check(
        { cle: '{dev}', url: 'exemple.fr', produit: 'autre' },
        refused('inconnue', { domaine: '', produit: 'autre' }),
      ),
    ],
  },
  {
    name: 'rule 2: a buyer key asked about another product answers inconnue without naming its domains',
    steps: [
      product('theme'),
      product('plugin'),
      buyer('k'),
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      check(
        { cle: '{k}', url: 'exemple.fr', produit: 'plugin' },
        refused('inconnue', { domaine: '', produit: 'plugin' }),
      ),
      check({ cle: '{k}', url: 'exemple.fr', produit: 'theme' }, ok({ domaine: 'exemple.fr', produit: 'theme' })),
    ],
  },
  {
    name: 'rule 3: a regenerated key answers regeneration; the new one keeps the domains',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      { advance: 600 },
      admin('POST', '/admin/keys/{k}/regenerate', undefined, { status: 201 }, { k2: 'cle' }),
      check(
        { cle: '{k}', url: 'exemple.fr' },
        refused('regeneration', { domaine: 'exemple.fr', quand: '2026-11-22T10:24:00Z', hote: 'exemple.fr' }),
      ),
      check({ cle: '{k2}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr', essai: false })),
      check({ cle: '{k2}', url: 'autre.fr' }, refused('autre_domaine', { domaine: 'exemple.fr' })),
    ],
  },
  {
    name: 'rule 3: a transferred key answers transfert; the new one is bound to the new site',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'ancien.fr' }, ok({ domaine: 'ancien.fr' })),
      { advance: 60 },
      admin(
        'POST',
        '/admin/keys/{k}/transfer',
        { from: 'www.ancien.fr', to: 'https://nouveau.fr/' },
        { status: 201 },
        { k2: 'cle' },
      ),
      check(
        { cle: '{k}', url: 'ancien.fr' },
        refused('transfert', { domaine: 'ancien.fr', quand: '2026-11-22T10:15:00Z' }),
      ),
      check({ cle: '{k2}', url: 'nouveau.fr' }, ok({ domaine: 'nouveau.fr' })),
      check({ cle: '{k2}', url: 'ancien.fr' }, refused('autre_domaine', { domaine: 'nouveau.fr' })),
    ],
  },
  {
    name: 'rule 3: a transfer without a destination frees the slot for the next site',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'ancien.fr' }, ok({ domaine: 'ancien.fr' })),
      admin('POST', '/admin/keys/{k}/transfer', { from: 'ancien.fr' }, { status: 201 }, { k2: 'cle' }),
      check({ cle: '{k2}', url: 'nouveau.fr' }, ok({ domaine: 'nouveau.fr' })),
    ],
  },
  {
    name: 'rule 3: a revoked key answers revocation, even on localhost',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      { advance: 86400 },
      admin('POST', '/admin/keys/{k}/revoke', { reason: 'chargeback' }, { status: 200 }),
      check(
        { cle: '{k}', url: 'exemple.fr' },
        refused('revocation', { domaine: 'exemple.fr', quand: '2026-11-23T10:14:00Z', ...at(T0 + 86400) }),
      ),
      check({ cle: '{k}', url: 'localhost' }, refused('revocation', { domaine: 'exemple.fr', hote: 'localhost' })),
      admin('GET', '/admin/keys/{k}', undefined, { status: 200, body: { status: 'revocation', reason: 'chargeback' } }),
    ],
  },
  {
    name: 'rule 4: a trial runs until its end, then answers expiree dated at the end',
    steps: [
      product('theme'),
      issue('t', { produit: 'theme', kind: 'trial', expire: '2026-11-29T10:14:00Z' }),
      check({ cle: '{t}', url: 'essai.fr' }, ok({ domaine: 'essai.fr', essai: false })),
      { advance: 7 * 86400 - 1 },
      check({ cle: '{t}', url: 'essai.fr' }, ok({ domaine: 'essai.fr' })),
      { advance: 1 },
      check(
        { cle: '{t}', url: 'essai.fr' },
        refused('expiree', { domaine: 'essai.fr', quand: '2026-11-29T10:14:00Z' }),
      ),
      check(
        { cle: '{t}', url: 'staging.essai.fr' },
        refused('expiree', { domaine: 'essai.fr', hote: 'staging.essai.fr' }),
      ),
    ],
  },
  {
    name: 'produit and nonce are echoed inside the signed donnees',
    steps: [
      ...base,
      check(
        { cle: '{k}', url: 'exemple.fr', produit: 'theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' },
        ok({ domaine: 'exemple.fr', produit: 'theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' }),
      ),
      check(
        { cle: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', url: 'exemple.fr', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' },
        refused('inconnue', { domaine: '', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' }),
      ),
    ],
  },
  {
    name: 'a pasted key with spaces, dashes and lower case is the same key',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      check({ cle: ' {k:lower} ', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      check({ cle: '{k:bare}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
    ],
  },
  {
    name: 'both path spellings answer the same verdict',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' }), { path: '/api/license' }),
      check({ cle: '{k}', url: 'autre.fr' }, refused('autre_domaine', { domaine: 'exemple.fr' }), {
        path: '/api/license',
      }),
    ],
  },
  {
    name: 'unknown fields in the body are ignored',
    steps: [
      check({ cle: 'AAAAA', url: 'exemple.fr', version: 2, extra: { a: 1 } }, refused('inconnue', { domaine: '' })),
    ],
  },

  // ---- Wire rules (docs/protocol.md#request, #errors, #rate-limit, #user-agent-filter) --------
  {
    name: 'OPTIONS answers 204 with Allow and CORS, on both spellings',
    steps: [
      {
        request: { method: 'OPTIONS', path: '/api/licence' },
        expect: {
          status: 204,
          headers: {
            allow: 'OPTIONS, POST',
            'access-control-allow-origin': '*',
            'access-control-allow-methods': '*present*',
            'access-control-allow-headers': '*present*',
          },
        },
      },
      {
        request: { method: 'OPTIONS', path: '/api/license', headers: { 'user-agent': null } },
        expect: { status: 204, headers: { allow: 'OPTIONS, POST' } },
      },
    ],
  },
  {
    name: 'every answer of the public endpoint carries CORS and no-store',
    steps: [
      unknownKey({
        status: 200,
        headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store', 'content-type': '*present*' },
      }),
      check(
        { cle: 'AAAAA' },
        {
          status: 400,
          problem: 'invalid-request',
          headers: {
            'access-control-allow-origin': '*',
            'cache-control': 'no-store',
            'content-type': 'application/problem+json',
          },
        },
      ),
    ],
  },
  ...['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD'].map((method) => ({
    name: `${method} on the endpoint is 405 with Allow`,
    steps: [
      {
        request: { method, path: '/api/licence' },
        expect: {
          status: 405,
          headers: { allow: 'OPTIONS, POST' },
          ...(method === 'HEAD' ? {} : { problem: 'method-not-allowed' }),
        },
      },
    ],
  })),
  {
    name: 'an unknown path is 404',
    steps: [
      unknownKey(problem(404, 'not-found'), { path: '/api/licences' }),
      unknownKey(problem(404, 'not-found'), { path: '/' }),
    ],
  },
  {
    name: 'order: a blocked User-Agent on an unknown path is 404',
    steps: [
      unknownKey(problem(404, 'not-found'), {
        path: '/api/nope',
        headers: { 'user-agent': 'curl/8.4.0' },
      }),
    ],
  },
  {
    name: 'order: a wrong method with a blocked User-Agent is 405',
    steps: [
      {
        request: { method: 'GET', path: '/api/licence', headers: { 'user-agent': 'curl/8.4.0' } },
        expect: problem(405, 'method-not-allowed'),
      },
    ],
  },
  ...[
    ['no User-Agent', null],
    ['an empty User-Agent', ''],
    ['curl', 'curl/8.4.0'],
    ['Wget', 'Wget/1.21.3'],
    ['python-requests', 'python-requests/2.31.0'],
    ['Python-urllib', 'Python-urllib/3.11'],
    ['Go-http-client', 'Go-http-client/1.1'],
    ['Java', 'Java/17.0.2'],
    ['Apache-HttpClient', 'Apache-HttpClient/4.5.14 (Java/17.0.2)'],
    ['okhttp', 'okhttp/4.12.0'],
    ['axios', 'axios/1.6.2'],
    ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
    ['undici', 'undici'],
    ['node', 'node'],
    ['GuzzleHttp', 'GuzzleHttp/7'],
    ['libwww-perl', 'libwww-perl/6.72'],
  ].map(([label, ua]) => ({
    name: `a default User-Agent is 403: ${label}`,
    steps: [
      unknownKey(problem(403, 'user-agent-blocked', { 'access-control-allow-origin': '*' }), {
        headers: { 'user-agent': ua },
      }),
    ],
  })),
  {
    name: 'a product User-Agent that mentions a library is not blocked',
    steps: [
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'MonTheme/2.1 (WordPress; curl)' } }),
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'MonTheme/2.1 GuzzleHttp/7' } }),
      // A name that only starts like a library's; WordPress's default (it names the site); the
      // default of each client of this repository (the product's id first).
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'curly-theme/1.0' } }),
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'WordPress/6.1; https://example.com' } }),
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'mon-theme (@licence/client 0.1.0)' } }),
      unknownKey(refused('inconnue', {}), { headers: { 'user-agent': 'curl (licence-php/1.0.0)' } }),
    ],
  },
  {
    name: 'more defaults are 403: a bare library name, API tools, more libraries',
    steps: [
      'curl',
      'Wget',
      'python-urllib3/2.2.1',
      'aiohttp/3.9.1',
      'Node.js/20.11.0 (linux; x64)',
      'HTTPie/3.2.2',
      'PostmanRuntime/7.36.0',
      'insomnia/2023.5.8',
      'got (https://github.com/sindresorhus/got)',
      'Scrapy/2.11.0 (+https://scrapy.org)',
    ].map((ua) =>
      unknownKey(problem(403, 'user-agent-blocked', { 'access-control-allow-origin': '*' }), {
        headers: { 'user-agent': ua },
      }),
    ),
  },
  {
    name: 'the content type must be application/json',
    steps: [
      unknownKey(problem(415, 'unsupported-media-type'), { headers: { 'content-type': 'text/plain' } }),
      unknownKey(problem(415, 'unsupported-media-type'), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      unknownKey(problem(415, 'unsupported-media-type'), { headers: { 'content-type': null } }),
      unknownKey(refused('inconnue', {}), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      unknownKey(refused('inconnue', {}), { headers: { 'content-type': 'Application/JSON' } }),
    ],
  },
  {
    name: 'a body with a content coding is 415, with Accept-Encoding: identity',
    steps: [
      unknownKey(problem(415, 'unsupported-media-type', { 'accept-encoding': 'identity' }), {
        headers: { 'content-encoding': 'gzip' },
      }),
      unknownKey(problem(415, 'unsupported-media-type', { 'accept-encoding': 'identity' }), {
        headers: { 'content-encoding': 'br' },
      }),
      unknownKey(refused('inconnue', {}), { headers: { 'content-encoding': 'identity' } }),
    ],
  },
  {
    name: 'a body over 8 KiB is 413',
    steps: [
      {
        request: { method: 'POST', path: '/api/licence', rawRepeat: { text: 'x', times: 8193 } },
        expect: problem(413, 'body-too-large'),
      },
      {
        request: {
          method: 'POST',
          path: '/api/licence',
          rawRepeat: { text: ' ', times: 8170 },
          raw: '{"cle":"AAAAA","url":"exemple.fr"}',
        },
        expect: problem(413, 'body-too-large'),
      },
    ],
  },
  {
    name: 'a body of exactly 8 KiB is read',
    steps: [
      {
        request: {
          method: 'POST',
          path: '/api/licence',
          raw: '{"cle":"AAAAA","url":"exemple.fr"}',
          rawRepeat: { text: ' ', times: 8158 },
        },
        expect: refused('inconnue', {}),
      },
    ],
  },
  ...[
    ['invalid JSON', '{"cle": "AAAAA", "url": '],
    ['a JSON array', '[{"cle":"AAAAA","url":"exemple.fr"}]'],
    ['a JSON string', '"AAAAA"'],
    ['null', 'null'],
    ['an empty body', ''],
    ['missing cle', '{"url":"exemple.fr"}'],
    ['missing url', '{"cle":"AAAAA"}'],
    ['an empty cle', '{"cle":"","url":"exemple.fr"}'],
    ['a cle with no letter or digit', '{"cle":"- -","url":"exemple.fr"}'],
    ['a numeric cle', '{"cle":12345,"url":"exemple.fr"}'],
    ['an array url', '{"cle":"AAAAA","url":["exemple.fr"]}'],
    ['an empty url', '{"cle":"AAAAA","url":"   "}'],
    ['an ftp url', '{"cle":"AAAAA","url":"ftp://exemple.fr"}'],
    ['a url with userinfo', '{"cle":"AAAAA","url":"http://admin:pw@exemple.fr"}'],
    ['a public suffix', '{"cle":"AAAAA","url":"co.uk"}'],
    ['a private public suffix', '{"cle":"AAAAA","url":"myshopify.com"}'],
    ['a malformed produit', '{"cle":"AAAAA","url":"exemple.fr","produit":"Mon Theme"}'],
    ['a short nonce', '{"cle":"AAAAA","url":"exemple.fr","nonce":"short"}'],
    ['a numeric nonce', '{"cle":"AAAAA","url":"exemple.fr","nonce":1234567890123456}'],
  ].map(([label, raw]) => ({
    name: `a bad body is 400: ${label}`,
    steps: [
      {
        request: { method: 'POST', path: '/api/licence', raw },
        expect: problem(400, 'invalid-request', { 'access-control-allow-origin': '*' }),
      },
    ],
  })),
  {
    name: 'a cle over 1024 characters is 400',
    steps: [
      {
        request: {
          method: 'POST',
          path: '/api/licence',
          raw: '{"url":"exemple.fr","cle":"',
          rawRepeat: { text: 'A', times: 1025 },
          rawEnd: '"}',
        },
        expect: problem(400, 'invalid-request'),
      },
    ],
  },
  {
    name: 'rate limit: 30 calls pass, the 31st is 429 with Retry-After, and 60 s later calls pass again',
    steps: [
      { repeat: 30, ...unknownKey(refused('inconnue', {})) },
      unknownKey(problem(429, 'rate-limited', { 'retry-after': '60', 'access-control-allow-origin': '*' })),
      { request: { method: 'OPTIONS', path: '/api/licence' }, expect: { status: 204 } },
      { advance: 59 },
      unknownKey(problem(429, 'rate-limited', { 'retry-after': '1' })),
      { advance: 1 },
      unknownKey(refused('inconnue', {})),
    ],
  },
  {
    name: 'rate limit: 404, 405 and 403 do not count; 400 and 415 do',
    steps: [
      {
        repeat: 40,
        ...unknownKey(problem(403, 'user-agent-blocked'), { headers: { 'user-agent': 'curl/8' } }),
      },
      { repeat: 40, request: { method: 'GET', path: '/api/licence' }, expect: { status: 405 } },
      { repeat: 40, ...check({}, problem(404, 'not-found'), { path: '/api/x' }) },
      {
        repeat: 29,
        request: { method: 'POST', path: '/api/licence', raw: '{' },
        expect: problem(400, 'invalid-request'),
      },
      unknownKey(problem(415, 'unsupported-media-type'), { headers: { 'content-type': 'text/plain' } }),
      unknownKey(problem(429, 'rate-limited')),
    ],
  },
  {
    name: 'healthz answers without a User-Agent and is not counted',
    steps: [
      {
        repeat: 35,
        request: { method: 'GET', path: '/healthz', headers: { 'user-agent': null } },
        expect: { status: 200, body: { status: 'ok', store: 'up' } },
      },
    ],
  },

  // ---- Admin API (docs/protocol.md#administration, #key-lifecycle) -----------------------------
  {
    name: 'admin: a wrong or missing token is 401',
    steps: [
      {
        request: {
          method: 'POST',
          path: '/admin/products',
          auth: 'wrong-token-0123456789',
          body: { id: 'x', author: 'a', name: 'X' },
        },
        expect: problem(401, 'unauthorized', { 'www-authenticate': '*present*' }),
      },
      {
        request: { method: 'GET', path: '/admin/products/x/installations', auth: null },
        expect: problem(401, 'unauthorized'),
      },
    ],
  },
  {
    // docs/protocol.md#staging-hosts, #authors: each field given replaces the stored one.
    name: 'admin: PATCH /admin/products/:id renames a product or sets its staging patterns',
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      product('theme'),
      product('autre', 'concurrent'),
      admin(
        'PATCH',
        '/admin/products/theme',
        { staging: ['*.Recette.fr.', 'staging-*.boutique.fr'], ignored: true },
        {
          status: 200,
          body: {
            id: 'theme',
            author: 'atelier',
            name: 'Produit theme',
            staging: ['*.recette.fr', 'staging-*.boutique.fr'],
          },
        },
      ),
      as(
        't',
        admin(
          'PATCH',
          '/admin/products/theme',
          { name: ' Thème ', staging: null },
          { status: 200, body: { name: 'Thème', staging: ['*.recette.fr', 'staging-*.boutique.fr'] } },
        ),
      ),
      admin('GET', '/admin/products', undefined, {
        status: 200,
        body: {
          products: [
            { id: 'autre', author: 'concurrent', name: 'Produit autre', staging: [], installations: 0 },
            {
              id: 'theme',
              author: 'atelier',
              name: 'Thème',
              staging: ['*.recette.fr', 'staging-*.boutique.fr'],
              installations: 0,
            },
          ],
        },
      }),
      admin('PATCH', '/admin/products/theme', { staging: [] }, { status: 200, body: { name: 'Thème', staging: [] } }),
      admin('PATCH', '/admin/products/theme', undefined, invalid),
      admin('PATCH', '/admin/products/theme', {}, invalid),
      admin('PATCH', '/admin/products/theme', { name: null, staging: null }, invalid),
      admin('PATCH', '/admin/products/theme', { name: '' }, invalid),
      admin('PATCH', '/admin/products/theme', { staging: '*.recette.fr' }, invalid),
      admin('PATCH', '/admin/products/theme', { staging: [42] }, invalid),
      admin('PATCH', '/admin/products/theme', { staging: ['recette.*'] }, invalid),
      admin(
        'PATCH',
        '/admin/products/theme',
        { staging: Array.from({ length: 51 }, (_, index) => `s${index}.recette.fr`) },
        invalid,
      ),
      admin('POST', '/admin/products', { id: 'plugin', author: 'atelier', name: 'P', staging: 'x.fr' }, invalid),
      admin('PATCH', '/admin/products/inconnu', { name: 'X' }, notFound),
      admin('PATCH', '/admin/products/Mon%20Theme', { name: 'X' }, invalid),
      as('t', admin('PATCH', '/admin/products/autre', { name: 'Vol' }, notFound)),
      admin('GET', '/admin/products/theme', undefined, problem(405, 'method-not-allowed', { allow: 'PATCH' })),
      admin('GET', '/admin/products', undefined, {
        status: 200,
        body: {
          products: [
            { id: 'autre', author: 'concurrent', name: 'Produit autre', staging: [], installations: 0 },
            { id: 'theme', author: 'atelier', name: 'Thème', staging: [], installations: 0 },
          ],
        },
      }),
    ],
  },
  {
    name: 'admin: a product id is taken once',
    steps: [
      product('theme'),
      admin('POST', '/admin/products', { id: 'theme', author: 'autre', name: 'Autre' }, problem(409, 'conflict')),
      admin('POST', '/admin/products', { id: 'Mon Theme', author: 'a', name: 'X' }, problem(400, 'invalid-request')),
      admin('POST', '/admin/products', { id: 'plugin' }, problem(400, 'invalid-request')),
    ],
  },
  {
    name: 'admin: issuing keys checks the product, the kind and the fields',
    steps: [
      product('theme'),
      admin('POST', '/admin/keys', { produit: 'inconnu', kind: 'buyer' }, problem(404, 'not-found')),
      admin('POST', '/admin/keys', { produit: 'theme', kind: 'gold' }, problem(400, 'invalid-request')),
      admin('POST', '/admin/keys', { produit: 'theme', kind: 'trial' }, problem(400, 'invalid-request')),
      admin(
        'POST',
        '/admin/keys',
        { produit: 'theme', kind: 'buyer', expire: '2027-01-01T00:00:00Z' },
        problem(400, 'invalid-request'),
      ),
      admin(
        'POST',
        '/admin/keys',
        { produit: 'theme', kind: 'trial', expire: '2026-11-01T00:00:00Z' },
        problem(400, 'invalid-request'),
      ),
      admin('POST', '/admin/keys', { produit: 'theme', kind: 'buyer', sites: 0 }, problem(400, 'invalid-request')),
      admin(
        'POST',
        '/admin/keys',
        { produit: 'theme', kind: 'buyer', sites: 3 },
        { status: 201, body: { produit: 'theme', kind: 'buyer', sites: 3 } },
      ),
    ],
  },
  {
    name: 'admin: one live dev key per product',
    steps: [
      product('theme'),
      issue('dev', { produit: 'theme', kind: 'dev' }),
      admin('POST', '/admin/keys', { produit: 'theme', kind: 'dev' }, problem(409, 'conflict')),
      admin('POST', '/admin/keys/{dev}/regenerate', undefined, { status: 201 }, { dev2: 'cle' }),
      check({ cle: '{dev2}', url: 'exemple.fr' }, ok({ essai: true })),
      check({ cle: '{dev}', url: 'exemple.fr' }, refused('regeneration', { domaine: '' })),
    ],
  },
  {
    name: 'admin: any action on a key no longer alive is 409',
    steps: [
      ...base,
      admin('POST', '/admin/keys/{k}/revoke', undefined, { status: 200 }),
      admin('POST', '/admin/keys/{k}/revoke', undefined, problem(409, 'conflict')),
      admin('POST', '/admin/keys/{k}/regenerate', undefined, problem(409, 'conflict')),
      admin('POST', '/admin/keys/{k}/transfer', { to: 'b.fr' }, problem(409, 'conflict')),
    ],
  },
  {
    name: 'admin: a transfer from a domain the key is not bound to, or beyond its allowance, is 409',
    steps: [
      ...base,
      check({ cle: '{k}', url: 'a.fr' }, ok({ domaine: 'a.fr' })),
      admin('POST', '/admin/keys/{k}/transfer', { from: 'b.fr', to: 'c.fr' }, problem(409, 'conflict')),
      admin('POST', '/admin/keys/{k}/transfer', { to: 'c.fr' }, problem(409, 'conflict')),
      check({ cle: '{k}', url: 'a.fr' }, ok({ domaine: 'a.fr' })),
    ],
  },
  {
    name: 'admin: an unknown key is 404',
    steps: [
      admin('GET', '/admin/keys/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', undefined, problem(404, 'not-found')),
      admin('POST', '/admin/keys/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE/revoke', undefined, problem(404, 'not-found')),
      admin('GET', '/admin/products/inconnu/installations', undefined, problem(404, 'not-found')),
    ],
  },
  {
    name: 'admin: a wrong method on a known admin path is 405',
    steps: [
      admin('PUT', '/admin/products', undefined, { status: 405, headers: { allow: 'GET, POST' } }),
      admin('DELETE', '/admin/keys', undefined, { status: 405, headers: { allow: 'POST' } }),
      admin('DELETE', '/admin/authors', undefined, { status: 405, headers: { allow: 'GET, POST' } }),
      admin('GET', '/admin/authors/atelier/tokens/tok_x', undefined, { status: 405, headers: { allow: 'DELETE' } }),
      admin('POST', '/admin/products/theme/activity', undefined, { status: 405, headers: { allow: 'GET' } }),
    ],
  },
  {
    name: 'admin: purge answers the count of erased addresses',
    steps: [admin('POST', '/admin/purge', undefined, { status: 200, body: { erased: 0 } })],
  },

  // ---- Authors and author tokens (docs/protocol.md#authors) --------------------------------------
  {
    name: 'authors: the operator adds an author and lists them; an id is taken once',
    steps: [
      author('atelier', 'Atelier'),
      { advance: 60 },
      admin(
        'POST',
        '/admin/authors',
        { id: 'concurrent', name: 'Concurrent' },
        { status: 201, body: { id: 'concurrent', name: 'Concurrent', created: '2026-11-22T10:15:00Z' } },
      ),
      admin('POST', '/admin/authors', { id: 'atelier', name: 'Autre' }, problem(409, 'conflict')),
      admin('POST', '/admin/authors', { id: 'sans-nom' }, problem(400, 'invalid-request')),
      admin('GET', '/admin/authors', undefined, {
        status: 200,
        body: {
          authors: [
            { id: 'atelier', name: 'Atelier', created: at0 },
            { id: 'concurrent', name: 'Concurrent', created: '2026-11-22T10:15:00Z' },
          ],
        },
      }),
    ],
  },
  {
    name: 'authors: GET /admin/me names the operator, or the author of a token',
    steps: [
      admin('GET', '/admin/me', undefined, { status: 200, body: { role: 'operator' } }),
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      as('t', admin('GET', '/admin/me', undefined, meAtelier)),
    ],
  },
  {
    name: 'authors: an author created later owns the products that already name it',
    steps: [
      product('theme', 'atelier'),
      product('autre', 'concurrent'),
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      as(
        't',
        admin('GET', '/admin/products', undefined, {
          status: 200,
          body: {
            products: [{ id: 'theme', author: 'atelier', name: 'Produit theme', staging: [], installations: 0 }],
          },
        }),
      ),
      as(
        't',
        admin('GET', '/admin/products/theme/installations', undefined, {
          status: 200,
          body: { produit: 'theme', count: 0, keys: [] },
        }),
      ),
    ],
  },
  {
    name: "authors: an author token creates its own products (author left out); another author's is a 403",
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      product('autre', 'concurrent'),
      as(
        't',
        admin(
          'POST',
          '/admin/products',
          { id: 'plugin', name: 'Plugin' },
          { status: 201, body: { id: 'plugin', author: 'atelier', name: 'Plugin' } },
        ),
      ),
      as(
        't',
        admin(
          'POST',
          '/admin/products',
          { id: 'theme', author: 'atelier', name: 'Theme' },
          { status: 201, body: { id: 'theme', author: 'atelier' } },
        ),
      ),
      as('t', admin('POST', '/admin/products', { id: 'vol', author: 'concurrent', name: 'Vol' }, forbidden)),
      as('t', issue('k', { produit: 'plugin', kind: 'buyer' })),
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      as(
        't',
        admin('GET', '/admin/products', undefined, {
          status: 200,
          body: {
            products: [
              { id: 'plugin', author: 'atelier', name: 'Plugin', staging: [], installations: 1 },
              { id: 'theme', author: 'atelier', name: 'Theme', staging: [], installations: 0 },
            ],
          },
        }),
      ),
      admin('GET', '/admin/products', undefined, {
        status: 200,
        body: {
          products: [
            { id: 'autre', author: 'concurrent', name: 'Produit autre', staging: [], installations: 0 },
            { id: 'plugin', author: 'atelier', name: 'Plugin', staging: [], installations: 1 },
            { id: 'theme', author: 'atelier', name: 'Theme', staging: [], installations: 0 },
          ],
        },
      }),
    ],
  },
  {
    name: "authors: another author's product or key is a 404, as if it did not exist",
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      product('autre', 'concurrent'),
      buyer('k', 'autre'),
      ...[
        ['GET', '/admin/products/autre/installations'],
        ['GET', '/admin/products/autre/activity'],
        ['GET', '/admin/products/inconnu/installations'],
        ['GET', '/admin/keys/{k}'],
        ['POST', '/admin/keys/{k}/revoke'],
        ['POST', '/admin/keys/{k}/regenerate'],
        ['GET', '/admin/keys/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE'],
      ].map(([method, path]) => as('t', admin(method, path, undefined, problem(404, 'not-found')))),
      as('t', admin('POST', '/admin/keys/{k}/transfer', { to: 'vol.fr' }, problem(404, 'not-found'))),
      as('t', admin('POST', '/admin/keys', { produit: 'autre', kind: 'buyer' }, problem(404, 'not-found'))),
      // The refused operations changed nothing: the key is alive and binds its first domain.
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      admin('GET', '/admin/keys/{k}', undefined, { status: 200, body: { status: 'active', produit: 'autre' } }),
    ],
  },
  {
    name: "authors: operator-only routes are a 403 for an author token; another author's tokens a 404",
    steps: [
      author('atelier', 'Atelier'),
      author('concurrent', 'Concurrent'),
      authorToken('atelier', 't'),
      authorToken('concurrent', 'c'),
      as('t', admin('POST', '/admin/purge', undefined, forbidden)),
      as('t', admin('POST', '/admin/authors', { id: 'pirate', name: 'Pirate' }, forbidden)),
      as('t', admin('GET', '/admin/authors', undefined, forbidden)),
      as('t', admin('GET', '/admin/authors/concurrent/tokens', undefined, problem(404, 'not-found'))),
      as('t', admin('POST', '/admin/authors/concurrent/tokens', undefined, problem(404, 'not-found'))),
      as('t', admin('DELETE', '/admin/authors/concurrent/tokens/{c_id}', undefined, problem(404, 'not-found'))),
      // The other author's token still works: the refused DELETE deleted nothing.
      as(
        'c',
        admin('GET', '/admin/me', undefined, {
          status: 200,
          body: { role: 'author', author: { id: 'concurrent', name: 'Concurrent', created: at0 } },
        }),
      ),
      admin('GET', '/admin/authors', undefined, { status: 200 }),
    ],
  },
  {
    name: 'authors: tokens are listed without their secret, oldest first, with their last use',
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't', 'boutique'),
      { advance: 60 },
      authorToken('atelier', 'u'),
      admin('GET', '/admin/authors/atelier/tokens', undefined, {
        status: 200,
        body: {
          tokens: [
            { id: '{t_id}', label: 'boutique', created: at0, lastUsed: null },
            { id: '{u_id}', label: null, created: '2026-11-22T10:15:00Z', lastUsed: null },
          ],
        },
      }),
      { advance: 60 },
      as('t', admin('GET', '/admin/me', undefined, meAtelier)),
      // Used again within the minute: the last use stays.
      { advance: 30 },
      as(
        't',
        admin('GET', '/admin/authors/atelier/tokens', undefined, {
          status: 200,
          body: {
            tokens: [
              { id: '{t_id}', label: 'boutique', created: at0, lastUsed: '2026-11-22T10:16:00Z' },
              { id: '{u_id}', label: null, created: '2026-11-22T10:15:00Z', lastUsed: null },
            ],
          },
        }),
      ),
      admin('POST', '/admin/authors/atelier/tokens', { label: 42 }, problem(400, 'invalid-request')),
      admin('POST', '/admin/authors/inconnu/tokens', undefined, problem(404, 'not-found')),
      // An author makes its own tokens too, and the new one is its author's.
      as('t', authorToken('atelier', 'v', 'portable')),
      as('v', admin('GET', '/admin/me', undefined, meAtelier)),
    ],
  },
  {
    name: 'authors: a deleted token is a 401 from then on, like a token never issued',
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      as('t', admin('GET', '/admin/me', undefined, meAtelier)),
      as('t', admin('DELETE', '/admin/authors/atelier/tokens/{t_id}', undefined, { status: 204 })),
      as('t', admin('GET', '/admin/me', undefined, problem(401, 'unauthorized', { 'www-authenticate': 'Bearer' }))),
      admin('GET', '/admin/authors/atelier/tokens', undefined, { status: 200, body: { tokens: [] } }),
      admin('DELETE', '/admin/authors/atelier/tokens/{t_id}', undefined, problem(404, 'not-found')),
      {
        request: { method: 'GET', path: '/admin/me', auth: `lat_${'A'.repeat(43)}` },
        expect: problem(401, 'unauthorized'),
      },
    ],
  },

  // ---- Activity (docs/protocol.md#activity) ------------------------------------------------------
  {
    name: 'activity: each UTC day counts ok, essai and refusals by motif, days without verdicts included',
    steps: [
      author('atelier', 'Atelier'),
      authorToken('atelier', 't'),
      as('t', admin('POST', '/admin/products', { id: 'boutique', name: 'Boutique' }, { status: 201 })),
      as('t', issue('k', { produit: 'boutique', kind: 'buyer' })),
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr', essai: false })),
      check({ cle: '{k}', url: 'staging.exemple.fr' }, ok({ domaine: 'exemple.fr', essai: true })),
      check({ cle: '{k}', url: 'autre.fr' }, refused('autre_domaine', { domaine: 'exemple.fr' })),
      check({ cle: '{k}', url: 'www.exemple.fr', produit: 'boutique' }, ok({ domaine: 'exemple.fr' })),
      // An unknown key belongs to no product: it is counted nowhere.
      unknownKey(refused('inconnue', {})),
      as('t', activity('boutique', '?days=2', [day('2026-11-21'), busyDay])),
      as('t', activity('boutique', '?days=1', [busyDay])),
      { advance: 86400 },
      check({ cle: '{k}', url: 'exemple.fr' }, ok({ domaine: 'exemple.fr' })),
      as('t', activity('boutique', '?days=3', [day('2026-11-21'), busyDay, day('2026-11-23', { ok: 1 })])),
      // The default range: 30 days, today (2026-11-23) last.
      as('t', activity('boutique', '', [...zeroDays('2026-10-25', 28), busyDay, day('2026-11-23', { ok: 1 })])),
      // The operator sees it too.
      activity('boutique', '?days=1', [day('2026-11-23', { ok: 1 })]),
    ],
  },
  {
    name: 'activity: days is a whole number from 1 to 366',
    steps: [
      product('theme'),
      admin('GET', '/admin/products/theme/activity?days=366', undefined, { status: 200, body: { product: 'theme' } }),
      ...['0', '367', '-1', 'x', '1.5'].map((days) =>
        admin('GET', `/admin/products/theme/activity?days=${days}`, undefined, problem(400, 'invalid-request')),
      ),
      admin('GET', '/admin/products/inconnu/activity?days=30', undefined, problem(404, 'not-found')),
    ],
  },

  // ---- Webhooks (docs/protocol.md#webhooks) ---------------------------------------------------------
  // The services run with LICENCE_WEBHOOK_ALLOW_PRIVATE off. No step changes a key, so no endpoint
  // has a delivery: delivery ids are random, and a delivery log is asserted only when empty.
  {
    name: "webhooks: the operator's endpoint of every author is created, listed, rotated and deleted",
    steps: [
      addWebhook(
        'w',
        { url: HOOK_URL, events: ['verdict.refused', 'key.issued', 'verdict.refused'] },
        // Each event once, in the canonical order, whatever was sent; null: every author's events.
        // (The id is saved from this answer: the list below checks it.)
        { url: HOOK_URL, events: ['key.issued', 'verdict.refused'], author: null, created: at0 },
      ),
      webhookList([listedWebhook('w', HOOK_URL, ['key.issued', 'verdict.refused'], null, at0)]),
      admin('GET', '/admin/webhooks/{w}/deliveries', undefined, {
        status: 200,
        body: { webhook: '{w}', deliveries: [] },
      }),
      // Rotation: a new secret, the previous one signs 24 h more.
      admin(
        'POST',
        '/admin/webhooks/{w}/secret',
        undefined,
        { status: 200, body: { id: '{w}', previousUntil: atPlus(86400) } },
        { w_rotated: 'secret' },
      ),
      admin('DELETE', '/admin/webhooks/{w}', undefined, { status: 204 }),
      admin('DELETE', '/admin/webhooks/{w}', undefined, notFound),
      admin('GET', '/admin/webhooks/{w}/deliveries', undefined, notFound),
      webhookList([]),
    ],
  },
  {
    name: 'webhooks: a URL that is not https to a public host, or bad events, is 400 and stores nothing',
    steps: [
      ...[
        'http://boutique.exemple.fr/webhooks',
        'https://169.254.169.254/latest/meta-data/',
        'http://169.254.169.254/',
        'https://127.0.0.1/',
        'https://localhost/',
        'https://user:pw@boutique.exemple.fr/webhooks',
        'https://boutique.exemple.fr/webhooks#fin',
        'boutique.exemple.fr/webhooks',
      ].map((url) => admin('POST', '/admin/webhooks', { url, events: ['key.issued'] }, invalid)),
      ...[[], ['key.unknown'], ['key.issued', 'key.unknown'], 'key.issued'].map((events) =>
        admin('POST', '/admin/webhooks', { url: HOOK_URL, events }, invalid),
      ),
      admin('POST', '/admin/webhooks', { url: HOOK_URL }, invalid),
      admin('POST', '/admin/webhooks', { events: ['key.issued'] }, invalid),
      admin('POST', '/admin/webhooks', undefined, invalid),
      admin('POST', '/admin/webhooks', [HOOK_URL], invalid),
      {
        request: {
          method: 'POST',
          path: '/admin/webhooks',
          raw: '{"url": ',
          headers: { 'content-type': 'application/json' },
        },
        expect: invalid,
      },
      webhookList([]),
    ],
  },
  {
    name: "webhooks: an author token manages its own endpoints; another author's, or every author's, is a 404",
    steps: [
      author('atelier', 'Atelier'),
      author('concurrent', 'Concurrent'),
      authorToken('atelier', 't'),
      authorToken('concurrent', 'c'),
      addWebhook('all', { url: HOOK_URL, events: ['key.revoked'] }, { author: null }),
      { advance: 60 },
      // Author left out: the token's own.
      as(
        't',
        addWebhook(
          'wt',
          { url: 'https://atelier.exemple.fr/hooks', events: ['key.issued'] },
          { url: 'https://atelier.exemple.fr/hooks', events: ['key.issued'], author: 'atelier', created: atPlus(60) },
        ),
      ),
      as(
        't',
        admin('POST', '/admin/webhooks', { url: HOOK_URL, events: ['key.issued'], author: 'concurrent' }, forbidden),
      ),
      { advance: 60 },
      as(
        'c',
        addWebhook(
          'wc',
          { url: 'https://concurrent.exemple.fr/hooks', events: ['domain.bound'], author: 'concurrent' },
          { author: 'concurrent', created: atPlus(120) },
        ),
      ),
      as(
        't',
        webhookList([listedWebhook('wt', 'https://atelier.exemple.fr/hooks', ['key.issued'], 'atelier', atPlus(60))]),
      ),
      ...['{wc}', '{all}', NO_WEBHOOK].flatMap((id) =>
        webhookRoutes(id).map(([method, path]) => as('t', admin(method, path, undefined, notFound))),
      ),
      // The refused DELETE deleted nothing; the operator sees every endpoint, oldest first.
      as(
        'c',
        webhookList([
          listedWebhook('wc', 'https://concurrent.exemple.fr/hooks', ['domain.bound'], 'concurrent', atPlus(120)),
        ]),
      ),
      webhookList([
        listedWebhook('all', HOOK_URL, ['key.revoked'], null, at0),
        listedWebhook('wt', 'https://atelier.exemple.fr/hooks', ['key.issued'], 'atelier', atPlus(60)),
        listedWebhook('wc', 'https://concurrent.exemple.fr/hooks', ['domain.bound'], 'concurrent', atPlus(120)),
      ]),
      as(
        't',
        admin('GET', '/admin/webhooks/{wt}/deliveries', undefined, {
          status: 200,
          body: { webhook: '{wt}', deliveries: [] },
        }),
      ),
      as(
        't',
        admin(
          'POST',
          '/admin/webhooks/{wt}/secret',
          undefined,
          { status: 200, body: { id: '{wt}', previousUntil: atPlus(120 + 86400) } },
          { wt_rotated: 'secret' },
        ),
      ),
      as('t', admin('DELETE', '/admin/webhooks/{wt}', undefined, { status: 204 })),
      as('t', webhookList([])),
      // The operator reaches any endpoint, an author's included.
      admin('GET', '/admin/webhooks/{wc}/deliveries', undefined, {
        status: 200,
        body: { webhook: '{wc}', deliveries: [] },
      }),
      admin('DELETE', '/admin/webhooks/{wc}', undefined, { status: 204 }),
      as('c', webhookList([])),
    ],
  },
  {
    name: 'webhooks: an unknown endpoint, delivery or author is a 404',
    steps: [
      ...webhookRoutes(NO_WEBHOOK).map(([method, path]) => admin(method, path, undefined, notFound)),
      ...webhookRoutes('inconnu').map(([method, path]) => admin(method, path, undefined, notFound)),
      addWebhook('w', { url: HOOK_URL, events: ['key.issued'] }, { author: null }),
      admin('POST', `/admin/webhooks/{w}/deliveries/${NO_DELIVERY}/retry`, undefined, notFound),
      admin('POST', '/admin/webhooks/{w}/deliveries/inconnu/retry', undefined, notFound),
      admin('POST', '/admin/webhooks', { url: HOOK_URL, events: ['key.issued'], author: 'inconnu' }, notFound),
      webhookList([listedWebhook('w', HOOK_URL, ['key.issued'], null, at0)]),
    ],
  },
  {
    name: 'webhooks: a wrong method on a webhook path is 405 with Allow',
    steps: [
      ['PUT', '/admin/webhooks', 'GET, POST'],
      ['DELETE', '/admin/webhooks', 'GET, POST'],
      ['GET', `/admin/webhooks/${NO_WEBHOOK}`, 'DELETE'],
      ['POST', `/admin/webhooks/${NO_WEBHOOK}`, 'DELETE'],
      ['GET', `/admin/webhooks/${NO_WEBHOOK}/secret`, 'POST'],
      ['POST', `/admin/webhooks/${NO_WEBHOOK}/deliveries`, 'GET'],
      ['GET', `/admin/webhooks/${NO_WEBHOOK}/deliveries/${NO_DELIVERY}/retry`, 'POST'],
    ].map(([method, path, allow]) => admin(method, path, undefined, problem(405, 'method-not-allowed', { allow }))),
  },
];

const file = {
  covers:
    'The HTTP behaviour of a running service (docs/protocol.md: request, errors, key lifecycle, rate limit, administration): every rule of docs/protocol.md#verdict reached through real admin operations, every error status with its problem type, the order of the checks, both path spellings, OPTIONS and CORS, the rate limit, the admin API, its authors and author tokens (docs/protocol.md#authors: what a token of one author reaches, 403 and 404), the activity of a product per UTC day (docs/protocol.md#activity), the webhook endpoints (docs/protocol.md#webhooks: their admin routes, the URL and event rules, what an author token reaches; no delivery is sent, as no step changes a key) and the staging host patterns of a product (docs/protocol.md#staging-hosts: set through the admin API, matched by whole labels). Each case is a scenario run on a fresh service (empty store, fresh rate limit) whose clock starts at `clockStart` and moves only by `advance` steps.',
  consumers: ['apps/koa-server (Koa over loopback)', 'apps/lambda (the local runner)'],
  notes: [
    `clockStart: ${T0} (2026-11-22T10:14:00Z). A step {"advance": N} moves the service clock N seconds.`,
    'A request step: {request: {method, path, headers?, body? | raw? (+ rawRepeat {text, times} appended, then rawEnd), auth?}, expect, save?, repeat?}. A `path` may end with a query string (`?days=2`), sent as it is.',
    "Defaults for /api/ paths: headers content-type: application/json and user-agent: VectorTest/1.0 (+https://exemple.fr); a header given as null is removed. A `body` is sent as JSON text. For /admin/ paths: Authorization: Bearer <the runner's admin token> unless `auth` is given (a token, or null for none); `auth` may be a placeholder, {t} for the author token saved as t.",
    'Placeholders in paths, `auth`, header values and the string values of a request `body` or an expected `body`: {name} is a saved value (save: {name: "cle"} keeps the `cle` field of the response body, a string); {name:lower} its lower-case form; {name:bare} without dashes.',
    "Secrets: the values saved from a `cle` field (licence keys), a `token` field (author tokens) or a `secret` field (webhook secrets), and the runner's admin token, must appear in no log line of the server, in any spelling (docs/protocol.md#privacy, #webhooks).",
    'The service runs with LICENCE_WEBHOOK_ALLOW_PRIVATE off (docs/protocol.md#webhooks): an http URL, or one naming a private, loopback or link-local address or localhost, is refused.',
    'expect: status (exact); problem: the last path segment of the problem `type` URI (body is application/problem+json with type, title, status, detail); headers: lower-case name to exact value or "*present*"; donnees: the listed fields must have these values; body: the listed fields of the JSON body must deep-equal these (arrays and objects compared whole; a 204 has no body to list). Every 200 of /api/ must also be an envelope that verifies with the service public key for the request\'s host (and produit/nonce when sent).',
    'repeat: N runs the same step N times, each with the same expectation.',
  ],
  clockStart: T0,
  cases,
};
writeFileSync(new URL('../cases/http.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
console.log(`http.json: ${cases.length} cases, ${cases.reduce((n, c) => n + c.steps.length, 0)} steps`);
