import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkEnvelope, isRecord, send } from '@licence/http-vector-runner';
import type { HttpAnswer, SendOptions } from '@licence/http-vector-runner';
import { consoleAssets } from '@licence/console';
import { createKeyAdmin, createWebhookDeliverer, randomBytes, WEBHOOK_EVENT_TYPES } from '@licence/service';
import { captureLogs } from './capture-logs.js';
import { keySpellings, linesHolding } from './capture-logs.js';
import { startCollector } from './webhook-collector.js';
import type { Collector } from './webhook-collector.js';
import { openSqliteFile } from './sqlite-file.js';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * Real answers of the real server validated against docs/openapi.yaml: for every request, the
 * (path, method, status) must be documented, the body must validate against the documented
 * schema of its content type, and every documented header whose schema is a `const` must carry
 * that value. The set of triples reached is compared with the set documented, so an answer the
 * document forgets and a documented answer nothing reaches both fail here.
 */

const DOC_FILE = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
const doc: unknown = parse(readFileSync(DOC_FILE, 'utf8'));
if (!isRecord(doc) || !isRecord(doc.paths)) throw new Error(`${DOC_FILE}: no paths`);
const paths = doc.paths;

// strict: false, because the whole OpenAPI document is added as one schema (its `paths` and
// `components` are not JSON Schema keywords) so that `#/components/...` references resolve.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'openapi');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** RFC 6901 escaping of one pointer segment. */
const escapePointer = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** Follows `#/...` references of the document itself; returns the object and its pointer. */
function resolve(
  value: unknown,
  pointer: string,
): { readonly value: Record<string, unknown>; readonly pointer: string } {
  if (!isRecord(value)) throw new Error(`${pointer}: not an object`);
  const ref = value.$ref;
  if (typeof ref !== 'string') return { value, pointer };
  if (!ref.startsWith('#/')) throw new Error(`${pointer}: external $ref ${ref}`);
  let target: unknown = doc;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    target = isRecord(target) ? target[key] : undefined;
  }
  return resolve(target, ref.slice(1));
}

/** Every documented (path, method, status), as `POST /api/licence 200`. */
function documentedTriples(): Set<string> {
  const triples = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation) || !isRecord(operation.responses)) continue;
      for (const status of Object.keys(operation.responses)) triples.add(`${method.toUpperCase()} ${path} ${status}`);
    }
  }
  return triples;
}

function documentedMethods(path: string): string[] {
  const item = paths[path];
  return isRecord(item) ? METHODS.filter((method) => isRecord(item[method])).map((method) => method.toUpperCase()) : [];
}

/**
 * The webhook endpoints one author may have on the test server, which leaves LICENCE_WEBHOOKS_PER_AUTHOR
 * unset: its default (docs/protocol.md#endpoints, #configuration).
 */
const WEBHOOKS_PER_AUTHOR = 10;

const reached = new Set<string>();
/** Every key the admin API issued here, to look for in the logs. */
const issuedKeys: string[] = [];
/** Every author token the admin API issued here (docs/protocol.md#authors), likewise. */
const issuedTokens: string[] = [];
/** Every webhook secret the admin API showed here (docs/protocol.md#webhooks), likewise. */
const issuedSecrets: string[] = [];
/** Every buyer link the admin API made here (docs/protocol.md#buyer-links), likewise. */
const buyerLinks: string[] = [];
/** Every answer received from the server (each must be validated). */
let answers = 0;
const validated: string[] = [];

/**
 * Checks one real answer against the document. A 405 names a method that is, by definition, not
 * an operation of the path: it is checked against the path instead (docs/protocol.md#request:
 * `Allow` lists what the path answers, so it must list exactly the documented methods) and the
 * Problem schema.
 */
function check(template: string, method: string, answer: HttpAnswer, record = true): string[] {
  const failures: string[] = [];
  const label = `${method} ${template} ${answer.status}`;
  const item = paths[template];
  if (!isRecord(item)) return [`${label}: path not documented`];
  const operation = item[method.toLowerCase()];

  if (answer.status === 405) {
    if (isRecord(operation)) failures.push(`${label}: a documented operation answered 405`);
    const allow = (answer.headers.allow ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .sort();
    if (allow.join(', ') !== documentedMethods(template).sort().join(', ')) {
      failures.push(
        `${label}: Allow "${answer.headers.allow ?? ''}" is not the documented methods ${documentedMethods(template).join(', ')}`,
      );
    }
    failures.push(...checkBody(label, answer, '/components/responses/Problem', method));
    if (record && failures.length === 0) validated.push(label);
    return failures;
  }

  if (!isRecord(operation) || !isRecord(operation.responses)) return [`${label}: operation not documented`];
  const documented = operation.responses[String(answer.status)];
  if (documented === undefined) return [`${label}: status not documented`];
  const { value: response, pointer } = resolve(
    documented,
    `/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${answer.status}`,
  );
  failures.push(...checkBody(label, answer, pointer, method));

  const headers = isRecord(response.headers) ? response.headers : {};
  for (const [name, header] of Object.entries(headers)) {
    const { value: resolvedHeader, pointer: headerPointer } = resolve(
      header,
      `${pointer}/headers/${escapePointer(name)}`,
    );
    const schema = resolve(resolvedHeader.schema, `${headerPointer}/schema`);
    const actual = answer.headers[name.toLowerCase()];
    if ('const' in schema.value) {
      if (actual !== schema.value.const)
        failures.push(`${label}: header ${name} is ${String(actual)}, documented const ${String(schema.value.const)}`);
    } else if (actual !== undefined) {
      const validate = ajv.getSchema(`openapi#${schema.pointer}`);
      const parsed = schema.value.type === 'integer' ? Number(actual) : actual;
      if (validate === undefined || !validate(parsed))
        failures.push(`${label}: header ${name} "${actual}" does not fit its schema`);
    }
  }
  if (record) {
    reached.add(label);
    if (failures.length === 0) validated.push(label);
  }
  return failures;
}

/** The body against the response at `pointer`: its media type must be documented, and fit. */
function checkBody(label: string, answer: HttpAnswer, pointer: string, method: string): string[] {
  const { value: response } = resolve({ $ref: `#${pointer}` }, pointer);
  const content = isRecord(response.content) ? response.content : undefined;
  if (content === undefined || method === 'HEAD') {
    return answer.text === '' ? [] : [`${label}: a body where none is documented: ${answer.text.slice(0, 200)}`];
  }
  const mediaType = (answer.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  if (!(mediaType in content))
    return [`${label}: content type ${mediaType} not documented (${Object.keys(content).join(', ')})`];
  const validate = ajv.getSchema(`openapi#${pointer}/content/${escapePointer(mediaType)}/schema`);
  if (validate === undefined) return [`${label}: no schema for ${mediaType}`];
  // JSON media types are parsed; any other (the console's HTML, script, style sheet) is its text.
  let body: unknown = answer.text;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      body = JSON.parse(answer.text) as unknown;
    } catch (error) {
      return [`${label}: body is not JSON (${String(error)}): ${answer.text.slice(0, 200)}`];
    }
  }
  if (validate(body)) return [];
  return [`${label}: ${ajv.errorsText(validate.errors)}: ${answer.text.slice(0, 300)}`];
}

/**
 * A request the service sent to an endpoint against the document's `webhooks` entry of its type:
 * the body against its request body schema, each Standard Webhooks header against its parameter.
 */
function checkWebhook(
  type: string,
  request: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
): string[] {
  const webhooks = isRecord(doc) && isRecord(doc.webhooks) ? doc.webhooks : {};
  const entry = webhooks[type];
  if (!isRecord(entry) || !isRecord(entry.post)) return [`webhook ${type}: not documented`];
  const failures: string[] = [];
  const pointer = `/webhooks/${escapePointer(type)}/post/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(`openapi#${pointer}`);
  if (validate === undefined) return [`webhook ${type}: no body schema`];
  if (!validate(JSON.parse(request.body))) failures.push(`webhook ${type}: ${ajv.errorsText(validate.errors)}`);
  const parameters = Array.isArray(entry.post.parameters) ? entry.post.parameters : [];
  for (const [index, parameter] of parameters.entries()) {
    const { value, pointer: at } = resolve(parameter, `/webhooks/${escapePointer(type)}/post/parameters/${index}`);
    const name = String(value.name);
    const check = ajv.getSchema(`openapi#${at}/schema`);
    if (check === undefined || !check(request.headers[name]))
      failures.push(`webhook ${type}: header ${name} does not fit`);
  }
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    failures.push(`webhook ${type}: content-type ${String(request.headers['content-type'])}`);
  }
  return failures;
}

let server: TestServer;
let failures: string[] = [];
const NOW_MS = Date.UTC(2026, 10, 22, 10, 14, 0);

async function call(
  template: string,
  options: SendOptions & { readonly admin?: boolean | string },
): Promise<HttpAnswer> {
  const token =
    options.admin === true ? server.adminToken : typeof options.admin === 'string' ? options.admin : undefined;
  const isPublic = template.startsWith('/api/');
  const headers: Record<string, string | undefined> = {
    ...(isPublic ? { 'user-agent': PRODUCT_UA } : {}),
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(token === undefined || token === null ? {} : { authorization: `Bearer ${token}` }),
    ...options.headers,
  };
  const answer = await send(server.url, { ...options, headers });
  answers += 1;
  const parsed =
    answer.headers['content-type'] === 'application/json' && answer.text !== ''
      ? (JSON.parse(answer.text) as unknown)
      : undefined;
  if (isRecord(parsed) && typeof parsed.cle === 'string') issuedKeys.push(parsed.cle);
  if (isRecord(parsed) && typeof parsed.token === 'string') issuedTokens.push(parsed.token);
  if (isRecord(parsed) && typeof parsed.secret === 'string') issuedSecrets.push(parsed.secret);
  failures.push(...check(template, options.method, answer));
  return answer;
}

const json = (value: unknown): string => JSON.stringify(value);

function field(answer: HttpAnswer, name: string): string {
  const body: unknown = JSON.parse(answer.text);
  const value = isRecord(body) ? body[name] : undefined;
  if (typeof value !== 'string') throw new Error(`no ${name} in ${answer.text}`);
  return value;
}

/** An admin POST (the token unless `admin` says otherwise), a JSON body unless it is a string. */
const post = (template: string, path: string, body?: unknown, admin: boolean | string = true) =>
  call(template, {
    method: 'POST',
    path,
    admin,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : json(body) }),
  });
const postProducts = (body?: unknown, admin: boolean | string = true) =>
  post('/admin/products', '/admin/products', body, admin);
const postKeys = (body?: unknown, admin: boolean | string = true) => post('/admin/keys', '/admin/keys', body, admin);
/** An admin GET. */
const get = (template: string, path: string, admin: boolean | string = true) =>
  call(template, { method: 'GET', path, admin });
/** A body sent as another media type than JSON: 415 (docs/protocol.md#request). */
const postAs = (contentType: string, template: string, path: string, body: string) =>
  call(template, { method: 'POST', path, admin: true, body, headers: { 'content-type': contentType } });

/** A product's POST to a public path (the template is the path itself). */
const postPublic = (path: string, body: string, headers: Readonly<Record<string, string>> = {}) =>
  call(path, { method: 'POST', path, body, headers });

/** A receiver of every event, from the start: what the service sends is checked against `webhooks`. */
let collector: Collector;

beforeAll(async () => {
  server = await startTestServer({ clockStartMs: NOW_MS });
  collector = await startCollector();
  // Added as the CLI adds it with LICENCE_WEBHOOK_ALLOW_PRIVATE=1 (an every-author endpoint of the
  // operator): the admin API would refuse its http loopback URL (the variable is off here), and that
  // refusal is the routes' business, not this receiver's.
  const admin = createKeyAdmin({
    store: server.store,
    clock: server.clock,
    random: randomBytes,
    logger: captureLogs().logger,
    webhookAllowPrivate: true,
  });
  const created = await admin.addWebhook({ url: collector.url, events: [...WEBHOOK_EVENT_TYPES] });
  if (!created.id.startsWith('wh_')) throw new Error('the collector endpoint was not stored');
});

afterAll(async () => {
  await server.close();
  await collector.close();
});

// Each test reports the mismatches of its own requests.
beforeEach(() => {
  failures = [];
});

describe('docs/openapi.yaml against real answers', () => {
  it('documents every public answer: verdicts, problems, preflight', async () => {
    await postProducts({ id: 'theme', author: 'atelier', name: 'Thème' });
    const cle = field(await postKeys({ produit: 'theme', kind: 'buyer' }), 'cle');
    for (const path of ['/api/licence', '/api/license']) {
      const sent = { cle, url: 'https://www.boutique.exemple.fr/', produit: 'theme', nonce: 'Zk3q9XbLr2Vt8WcN4yHs' };
      const verdict = await postPublic(path, json(sent));
      expect(verdict.status).toBe(200);
      expect(checkEnvelope(JSON.parse(verdict.text), { json: sent }, server.publicKey)).toEqual([]);
      // A refusal is a 200 too, with the same schema.
      expect((await postPublic(path, json({ cle: 'AAAAA', url: 'exemple.fr' }))).status).toBe(200);
      expect((await postPublic(path, '{"cle":')).status).toBe(400);
      expect((await postPublic(path, json({ cle: 'AAAAA', url: 'x.fr' }), { 'user-agent': 'curl/8.4.0' })).status).toBe(
        403,
      );
      expect((await postPublic(path, ' '.repeat(9000))).status).toBe(413);
      expect(
        (await postPublic(path, json({ cle: 'AAAAA', url: 'x.fr' }), { 'content-type': 'text/plain' })).status,
      ).toBe(415);
      expect((await call(path, { method: 'OPTIONS', path })).status).toBe(204);
      expect((await call(path, { method: 'GET', path })).status).toBe(405);
      // Fill the window (30 requests in total from this address), then one more is 429.
      let answer: HttpAnswer;
      do {
        answer = await postPublic(path, json({ cle: 'AAAAA', url: 'exemple.fr' }));
      } while (answer.status === 200);
      expect(answer.status).toBe(429);
      // Empty the window for what follows (docs/protocol.md#rate-limit: 60 s sliding).
      server.clock.advance(60);
    }
    expect(failures).toEqual([]);
  });

  it('documents /healthz: GET and HEAD, and 405 for other methods', async () => {
    expect((await call('/healthz', { method: 'GET', path: '/healthz' })).status).toBe(200);
    expect((await call('/healthz', { method: 'HEAD', path: '/healthz' })).status).toBe(200);
    expect((await call('/healthz', { method: 'POST', path: '/healthz' })).status).toBe(405);
    expect(failures).toEqual([]);
  });

  it('documents /favicon.ico: GET and HEAD, and 405 for other methods (docs/protocol.md#favicon)', async () => {
    expect((await call('/favicon.ico', { method: 'GET', path: '/favicon.ico' })).status).toBe(200);
    expect((await call('/favicon.ico', { method: 'HEAD', path: '/favicon.ico' })).status).toBe(200);
    expect((await call('/favicon.ico', { method: 'POST', path: '/favicon.ico' })).status).toBe(405);
    expect(failures).toEqual([]);
  });

  it('documents every admin route: success, 400, 401, 404, 405, 409, 413, 415', async () => {
    const wrongToken = 'not-the-token-0123456789';
    /** An admin POST to /admin/keys/{cle}/<action>, for the key `cle`. */
    const onKey =
      (action: string) =>
      (cle: string, body?: unknown, admin: boolean | string = true) =>
        post(`/admin/keys/{cle}/${action}`, `/admin/keys/${cle}/${action}`, body, admin);
    const transfer = onKey('transfer');
    const regenerate = onKey('regenerate');
    const revoke = onKey('revoke');

    // /admin/products
    expect((await postProducts({ id: 'plugin', author: 'atelier', name: 'Plugin' })).status).toBe(201);
    expect((await postProducts({ id: 'plugin', author: 'x', name: 'X' })).status).toBe(409);
    expect((await postProducts({ id: 'Mon Plugin', author: 'x', name: 'X' })).status).toBe(400);
    expect((await postProducts({ id: 'x', author: 'x', name: 'X' }, wrongToken)).status).toBe(401);
    expect((await call('/admin/products', { method: 'PUT', path: '/admin/products', admin: true })).status).toBe(405);
    expect(
      (await postAs('text/plain', '/admin/products', '/admin/products', json({ id: 'x', author: 'x', name: 'X' })))
        .status,
    ).toBe(415);
    expect((await postProducts(' '.repeat(70_000))).status).toBe(413);
    // A product's staging host patterns (docs/protocol.md#staging-hosts), in every product view.
    expect(
      (await postProducts({ id: 'staged', author: 'atelier', name: 'Staged', staging: ['*.flywheelstaging.com'] }))
        .status,
    ).toBe(201);
    expect((await get('/admin/products', '/admin/products')).status).toBe(200);

    // /admin/products/{id} (PATCH): a new name or new staging patterns.
    const PRODUCT = '/admin/products/{id}';
    const patch = (path: string, body: unknown, admin: boolean | string = true, contentType = 'application/json') =>
      call(PRODUCT, {
        method: 'PATCH',
        path,
        admin,
        body: typeof body === 'string' ? body : json(body),
        headers: { 'content-type': contentType },
      });
    expect((await patch('/admin/products/plugin', { staging: ['staging-*.kinsta.cloud'] })).status).toBe(200);
    expect((await patch('/admin/products/plugin', { name: 'Plugin', staging: [] })).status).toBe(200);
    expect((await patch('/admin/products/plugin', {})).status).toBe(400);
    expect((await patch('/admin/products/plugin', { staging: '*.kinsta.cloud' })).status).toBe(400);
    expect((await patch('/admin/products/nope', { name: 'Nope' })).status).toBe(404);
    expect((await patch('/admin/products/plugin', { name: 'X' }, wrongToken)).status).toBe(401);
    expect((await patch('/admin/products/plugin', json({ name: 'X' }), true, 'text/plain')).status).toBe(415);
    expect((await patch('/admin/products/plugin', ' '.repeat(70_000))).status).toBe(413);
    expect((await get(PRODUCT, '/admin/products/plugin')).status).toBe(405);

    // /admin/keys
    const buyer = field(await postKeys({ produit: 'plugin', kind: 'buyer', sites: 2 }), 'cle');
    expect((await postKeys({ produit: 'plugin', kind: 'trial', expire: '2026-12-01T00:00:00Z' })).status).toBe(201);
    expect((await postKeys({ produit: 'plugin', kind: 'dev' })).status).toBe(201);
    expect((await postKeys({ produit: 'plugin', kind: 'dev' })).status).toBe(409);
    expect((await postKeys({ produit: 'nope', kind: 'buyer' })).status).toBe(404);
    expect((await postKeys({ produit: 'plugin', kind: 'gold' })).status).toBe(400);
    expect((await postKeys({}, false)).status).toBe(401);
    expect(
      (await postAs('text/plain', '/admin/keys', '/admin/keys', json({ produit: 'plugin', kind: 'buyer' }))).status,
    ).toBe(415);
    expect((await postKeys(' '.repeat(70_000))).status).toBe(413);

    // Bind a domain so that the views below hold one.
    expect((await postPublic('/api/licence', json({ cle: buyer, url: 'boutique.fr' }))).status).toBe(200);

    // /admin/keys/{cle}
    expect((await get('/admin/keys/{cle}', `/admin/keys/${buyer}`)).status).toBe(200);
    expect((await get('/admin/keys/{cle}', '/admin/keys/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).status).toBe(404);
    expect((await get('/admin/keys/{cle}', '/admin/keys/%ZZ')).status).toBe(400);
    expect((await get('/admin/keys/{cle}', `/admin/keys/${buyer}`, false)).status).toBe(401);
    expect(
      (await call('/admin/keys/{cle}', { method: 'DELETE', path: `/admin/keys/${buyer}`, admin: true })).status,
    ).toBe(405);

    // /admin/keys/{cle}/transfer: 409 cases first, while the key is alive.
    expect((await transfer(buyer, { from: 'autre.fr' })).status).toBe(409);
    expect((await transfer(buyer, { from: 42 })).status).toBe(400);
    expect((await transfer('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', { to: 'b.fr' })).status).toBe(404);
    expect((await transfer(buyer, { to: 'b.fr' }, false)).status).toBe(401);
    expect((await transfer(buyer, '[')).status).toBe(400);
    expect(
      (
        await postAs(
          'application/x-www-form-urlencoded',
          '/admin/keys/{cle}/transfer',
          `/admin/keys/${buyer}/transfer`,
          'to=b.fr',
        )
      ).status,
    ).toBe(415);
    expect((await transfer(buyer, ' '.repeat(70_000))).status).toBe(413);
    const transferred = field(await transfer(buyer, { from: 'boutique.fr', to: 'nouvelle.fr' }), 'cle');
    expect((await transfer(buyer, { to: 'b.fr' })).status).toBe(409);

    // /admin/keys/{cle}/regenerate
    const regenerated = field(await regenerate(transferred), 'cle');
    expect((await regenerate(transferred)).status).toBe(409);
    expect((await regenerate('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).status).toBe(404);
    expect((await regenerate(regenerated, undefined, false)).status).toBe(401);
    expect((await regenerate('%ZZ')).status).toBe(400);
    expect(
      (await postAs('text/plain', '/admin/keys/{cle}/regenerate', `/admin/keys/${regenerated}/regenerate`, 'x')).status,
    ).toBe(415);
    expect((await regenerate(regenerated, ' '.repeat(70_000))).status).toBe(413);
    expect((await get('/admin/keys/{cle}/regenerate', `/admin/keys/${regenerated}/regenerate`)).status).toBe(405);

    // /admin/keys/{cle}/revoke
    expect((await revoke(regenerated, { reason: 42 })).status).toBe(400);
    expect((await revoke(regenerated, {}, false)).status).toBe(401);
    expect((await revoke('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).status).toBe(404);
    expect(
      (await postAs('text/plain', '/admin/keys/{cle}/revoke', `/admin/keys/${regenerated}/revoke`, 'x')).status,
    ).toBe(415);
    expect((await revoke(regenerated, ' '.repeat(70_000))).status).toBe(413);
    expect((await revoke(regenerated, { reason: 'chargeback' })).status).toBe(200);
    expect((await revoke(regenerated)).status).toBe(409);
    // The revoked key's view has a reason and a date.
    expect((await get('/admin/keys/{cle}', `/admin/keys/${regenerated}`)).status).toBe(200);

    // /admin/products/{id}/installations
    expect((await get('/admin/products/{id}/installations', '/admin/products/plugin/installations')).status).toBe(200);
    expect((await get('/admin/products/{id}/installations', '/admin/products/nope/installations')).status).toBe(404);
    expect(
      (await get('/admin/products/{id}/installations', '/admin/products/plugin/installations', false)).status,
    ).toBe(401);
    expect((await get('/admin/products/{id}/installations', '/admin/products/%ZZ/installations')).status).toBe(400);
    expect((await post('/admin/products/{id}/installations', '/admin/products/plugin/installations')).status).toBe(405);

    // /admin/purge
    expect((await post('/admin/purge', '/admin/purge')).status).toBe(200);
    expect((await post('/admin/purge', '/admin/purge', undefined, wrongToken)).status).toBe(401);
    expect((await post('/admin/purge', '/admin/purge', '[1]')).status).toBe(400);
    expect((await postAs('text/plain', '/admin/purge', '/admin/purge', 'x')).status).toBe(415);
    expect((await post('/admin/purge', '/admin/purge', ' '.repeat(70_000))).status).toBe(413);
    expect((await get('/admin/purge', '/admin/purge')).status).toBe(405);

    expect(failures).toEqual([]);
  });

  it('documents authors, author tokens, the activity, and what an author token may not do', async () => {
    /** An author's tokens route, and one token's. */
    const tokens = (author: string) => `/admin/authors/${author}/tokens`;
    const TOKENS = '/admin/authors/{id}/tokens';
    const ONE_TOKEN = '/admin/authors/{id}/tokens/{tokenId}';
    const ACTIVITY = '/admin/products/{id}/activity';
    const del = (path: string, admin: boolean | string = true) => call(ONE_TOKEN, { method: 'DELETE', path, admin });
    // The test before failed authentication on purpose 9 times: let those leave the 60 s window
    // (docs/protocol.md#administration) so that this test's own 401s are not a 429.
    server.clock.advance(60);

    // /admin/authors (docs/protocol.md#authors): the operator's.
    expect((await post('/admin/authors', '/admin/authors', { id: 'atelier', name: 'Atelier' })).status).toBe(201);
    expect((await post('/admin/authors', '/admin/authors', { id: 'concurrent', name: 'Concurrent' })).status).toBe(201);
    expect((await post('/admin/authors', '/admin/authors', { id: 'atelier', name: 'Autre' })).status).toBe(409);
    expect((await post('/admin/authors', '/admin/authors', { id: 'sans-nom' })).status).toBe(400);
    expect((await post('/admin/authors', '/admin/authors', { id: 'x', name: 'X' }, false)).status).toBe(401);
    expect((await postAs('text/plain', '/admin/authors', '/admin/authors', json({ id: 'x', name: 'X' }))).status).toBe(
      415,
    );
    expect((await post('/admin/authors', '/admin/authors', ' '.repeat(70_000))).status).toBe(413);
    expect((await get('/admin/authors', '/admin/authors')).status).toBe(200);
    expect((await get('/admin/authors', '/admin/authors', false)).status).toBe(401);
    expect((await call('/admin/authors', { method: 'DELETE', path: '/admin/authors', admin: true })).status).toBe(405);

    // /admin/authors/{id}/tokens
    const created = await post(TOKENS, tokens('atelier'), { label: 'boutique' });
    expect(created.status).toBe(201);
    const token = field(created, 'token');
    const tokenId = field(created, 'id');
    const other = await post(TOKENS, tokens('concurrent'));
    expect(other.status).toBe(201);
    expect((await post(TOKENS, tokens('atelier'), { label: 42 })).status).toBe(400);
    expect((await post(TOKENS, tokens('inconnu'))).status).toBe(404);
    expect((await post(TOKENS, tokens('atelier'), undefined, false)).status).toBe(401);
    expect((await postAs('text/plain', TOKENS, tokens('atelier'), 'x')).status).toBe(415);
    expect((await post(TOKENS, tokens('atelier'), ' '.repeat(70_000))).status).toBe(413);
    expect((await get(TOKENS, tokens('atelier'))).status).toBe(200);
    expect((await get(TOKENS, tokens('atelier'), token)).status).toBe(200);
    expect((await get(TOKENS, tokens('inconnu'))).status).toBe(404);
    expect((await get(TOKENS, tokens('%ZZ'))).status).toBe(400);
    expect((await get(TOKENS, tokens('atelier'), false)).status).toBe(401);
    expect((await call(TOKENS, { method: 'DELETE', path: tokens('atelier'), admin: true })).status).toBe(405);

    // /admin/me
    expect((await get('/admin/me', '/admin/me')).status).toBe(200);
    expect((await get('/admin/me', '/admin/me', token)).status).toBe(200);
    expect((await get('/admin/me', '/admin/me', false)).status).toBe(401);
    expect((await post('/admin/me', '/admin/me')).status).toBe(405);

    // /admin/products: the list, and what an author token may create.
    expect((await postProducts({ id: 'autre', author: 'concurrent', name: 'Autre' })).status).toBe(201);
    expect((await postProducts({ id: 'boutique', name: 'Boutique' }, token)).status).toBe(201);
    expect((await postProducts({ id: 'vol', author: 'concurrent', name: 'Vol' }, token)).status).toBe(403);
    expect((await get('/admin/products', '/admin/products')).status).toBe(200);
    expect((await get('/admin/products', '/admin/products', token)).status).toBe(200);
    expect((await get('/admin/products', '/admin/products', false)).status).toBe(401);

    // A trial past its end shows `expiree` (docs/protocol.md#key-lifecycle), and counts in the activity.
    const trial = field(
      await postKeys({ produit: 'boutique', kind: 'trial', expire: '2026-11-22T12:00:00Z' }, token),
      'cle',
    );
    const buyer = field(await postKeys({ produit: 'boutique', kind: 'buyer' }, token), 'cle');
    expect((await postPublic('/api/licence', json({ cle: buyer, url: 'un.fr' }))).status).toBe(200);
    expect((await postPublic('/api/licence', json({ cle: buyer, url: 'deux.fr' }))).status).toBe(200);
    expect((await postPublic('/api/licence', json({ cle: buyer, url: 'staging.un.fr' }))).status).toBe(200);
    server.clock.advance(3 * 3600);
    expect((await postPublic('/api/licence', json({ cle: trial, url: 'essai.fr' }))).status).toBe(200);
    const expired = await get('/admin/keys/{cle}', `/admin/keys/${trial}`, token);
    expect(JSON.parse(expired.text)).toMatchObject({ status: 'expiree' });

    // /admin/products/{id}/activity (docs/protocol.md#activity)
    const activity = await get(ACTIVITY, '/admin/products/boutique/activity?days=2', token);
    expect(activity.status).toBe(200);
    expect(JSON.parse(activity.text)).toMatchObject({ product: 'boutique' });
    expect((await get(ACTIVITY, '/admin/products/boutique/activity')).status).toBe(200);
    expect((await get(ACTIVITY, '/admin/products/boutique/activity?days=0')).status).toBe(400);
    expect((await get(ACTIVITY, '/admin/products/boutique/activity?days=367')).status).toBe(400);
    expect((await get(ACTIVITY, '/admin/products/autre/activity', token)).status).toBe(404);
    expect((await get(ACTIVITY, '/admin/products/inconnu/activity')).status).toBe(404);
    expect((await get(ACTIVITY, '/admin/products/boutique/activity', false)).status).toBe(401);
    expect((await post(ACTIVITY, '/admin/products/boutique/activity')).status).toBe(405);

    // What only the operator may do: a 403 for an author token.
    expect((await post('/admin/purge', '/admin/purge', undefined, token)).status).toBe(403);
    expect((await get('/admin/authors', '/admin/authors', token)).status).toBe(403);
    expect((await post('/admin/authors', '/admin/authors', { id: 'pirate', name: 'Pirate' }, token)).status).toBe(403);

    // /admin/authors/{id}/tokens/{tokenId}: another author's token is a 404, its own a 204.
    expect((await del(`${tokens('concurrent')}/${field(other, 'id')}`, token)).status).toBe(404);
    expect((await del(`${tokens('atelier')}/%ZZ`)).status).toBe(400);
    expect((await del(`${tokens('atelier')}/${tokenId}`, false)).status).toBe(401);
    expect(
      (await call(ONE_TOKEN, { method: 'GET', path: `${tokens('atelier')}/${tokenId}`, admin: true })).status,
    ).toBe(405);
    expect((await del(`${tokens('atelier')}/${tokenId}`, token)).status).toBe(204);
    expect((await del(`${tokens('atelier')}/${tokenId}`)).status).toBe(404);
    // Deleted: a 401 from then on.
    expect((await get('/admin/me', '/admin/me', token)).status).toBe(401);
    expect(failures).toEqual([]);
  });

  it('documents the webhook routes (docs/protocol.md#webhooks)', async () => {
    // The failed authentications above leave the 60 s window (docs/protocol.md#administration).
    server.clock.advance(60);
    const HOOKS = '/admin/webhooks';
    const ONE = '/admin/webhooks/{id}';
    const SECRET = '/admin/webhooks/{id}/secret';
    const DELIVERIES = '/admin/webhooks/{id}/deliveries';
    const RETRY = '/admin/webhooks/{id}/deliveries/{deliveryId}/retry';
    const hook = (id: string, rest = '') => `/admin/webhooks/${id}${rest}`;
    const shop = { url: 'https://shop.example/hooks', events: ['key.issued'] };
    const token = field(await post('/admin/authors/{id}/tokens', '/admin/authors/atelier/tokens'), 'token');

    // /admin/webhooks: the operator's endpoint (every author's events), and an author's own.
    const created = await post(HOOKS, HOOKS, shop);
    expect(created.status).toBe(201);
    const id = field(created, 'id');
    const own = await post(HOOKS, HOOKS, { ...shop, url: 'https://atelier.example/hooks' }, token);
    expect(own.status).toBe(201);
    // The author's quota (docs/protocol.md#endpoints): up to it, then a 409; the extra ones go again.
    const extra: string[] = [];
    for (let i = 1; i < WEBHOOKS_PER_AUTHOR; i += 1) {
      const more = await post(HOOKS, HOOKS, { ...shop, url: `https://atelier.example/hooks/${i}` }, token);
      expect(more.status).toBe(201);
      extra.push(field(more, 'id'));
    }
    expect((await post(HOOKS, HOOKS, { ...shop, url: 'https://atelier.example/one-too-many' }, token)).status).toBe(
      409,
    );
    for (const more of extra) {
      const removed = await call(ONE, { method: 'DELETE', path: `/admin/webhooks/${more}`, admin: token });
      expect(removed.status).toBe(204);
    }
    expect((await post(HOOKS, HOOKS, { url: 'http://169.254.169.254/', events: ['key.issued'] })).status).toBe(400);
    expect((await post(HOOKS, HOOKS, { ...shop, events: [] })).status).toBe(400);
    expect((await post(HOOKS, HOOKS, { ...shop, author: 'concurrent' }, token)).status).toBe(403);
    expect((await post(HOOKS, HOOKS, { ...shop, author: 'inconnu' })).status).toBe(404);
    expect((await post(HOOKS, HOOKS, shop, false)).status).toBe(401);
    expect((await postAs('text/plain', HOOKS, HOOKS, json(shop))).status).toBe(415);
    expect((await post(HOOKS, HOOKS, ' '.repeat(70_000))).status).toBe(413);
    expect((await get(HOOKS, HOOKS)).status).toBe(200);
    expect((await get(HOOKS, HOOKS, token)).status).toBe(200);
    expect((await get(HOOKS, HOOKS, false)).status).toBe(401);
    expect((await call(HOOKS, { method: 'PUT', path: HOOKS, admin: true })).status).toBe(405);

    // A key issued now gives the endpoint a delivery to show and retry.
    expect((await postKeys({ produit: 'theme', kind: 'buyer' })).status).toBe(201);
    const log = await get(DELIVERIES, hook(id, '/deliveries'));
    expect(log.status).toBe(200);
    const [delivery] = (JSON.parse(log.text) as { deliveries: { id: string }[] }).deliveries;
    const deliveryId = delivery?.id ?? '';
    // The operator's endpoint, seen by an author token: not found, as a missing one.
    expect((await get(DELIVERIES, hook(id, '/deliveries'), token)).status).toBe(404);
    expect((await get(DELIVERIES, hook('%ZZ', '/deliveries'))).status).toBe(400);
    expect((await get(DELIVERIES, hook(id, '/deliveries'), false)).status).toBe(401);
    expect((await post(DELIVERIES, hook(id, '/deliveries'))).status).toBe(405);

    // /admin/webhooks/{id}/deliveries/{deliveryId}/retry
    const retry = (delivered: string) => hook(id, `/deliveries/${delivered}/retry`);
    expect((await post(RETRY, retry(deliveryId))).status).toBe(202);
    expect((await post(RETRY, retry('dlv_AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
    expect((await post(RETRY, retry('%ZZ'))).status).toBe(400);
    expect((await post(RETRY, retry(deliveryId), undefined, false)).status).toBe(401);
    expect((await postAs('text/plain', RETRY, retry(deliveryId), 'x')).status).toBe(415);
    expect((await post(RETRY, retry(deliveryId), ' '.repeat(70_000))).status).toBe(413);
    expect((await get(RETRY, retry(deliveryId))).status).toBe(405);

    // /admin/webhooks/{id}/secret
    expect((await post(SECRET, hook(id, '/secret'))).status).toBe(200);
    expect((await post(SECRET, hook('wh_AAAAAAAAAAAAAAAAAAAAAA', '/secret'))).status).toBe(404);
    expect((await post(SECRET, hook('%ZZ', '/secret'))).status).toBe(400);
    expect((await post(SECRET, hook(id, '/secret'), undefined, false)).status).toBe(401);
    expect((await postAs('text/plain', SECRET, hook(id, '/secret'), 'x')).status).toBe(415);
    expect((await post(SECRET, hook(id, '/secret'), ' '.repeat(70_000))).status).toBe(413);
    expect((await get(SECRET, hook(id, '/secret'))).status).toBe(405);

    // /admin/webhooks/{id}: deleted with their deliveries (no attempt left to make to these hosts).
    const del = (path: string, admin: boolean | string = true) => call(ONE, { method: 'DELETE', path, admin });
    expect((await del(hook(id), token)).status).toBe(404);
    expect((await del(hook('%ZZ'))).status).toBe(400);
    expect((await del(hook(id), false)).status).toBe(401);
    expect((await get(ONE, hook(id))).status).toBe(405);
    expect((await del(hook(field(own, 'id')), token)).status).toBe(204);
    expect((await del(hook(id))).status).toBe(204);
    expect((await del(hook(id))).status).toBe(404);
    expect(failures).toEqual([]);
  });

  it('documents buyer links: the admin route, the page, its style sheet and the transfer (docs/protocol.md#buyer-links)', async () => {
    // The failed authentications above leave the 60 s window (docs/protocol.md#administration).
    server.clock.advance(60);
    const LINK = '/admin/keys/{cle}/buyer-link';
    const PAGE = '/buyer/{token}';
    const TRANSFER = '/buyer/{token}/transfer';
    const origin = server.url;
    const link = (cle: string, body?: unknown, admin: boolean | string = true) =>
      post(LINK, `/admin/keys/${cle}/buyer-link`, body, admin);
    /** A new key of `theme` bound to `domain`, and the path of a buyer link for it. */
    const linkedKey = async (domain: string): Promise<{ cle: string; path: string }> => {
      const cle = field(await postKeys({ produit: 'theme', kind: 'buyer' }), 'cle');
      expect((await postPublic('/api/licence', json({ cle, url: domain }))).status).toBe(200);
      const made = await link(cle, { ttl: 3600 });
      expect(made.status).toBe(201);
      const url = field(made, 'url');
      buyerLinks.push(url);
      return { cle, path: new URL(url).pathname };
    };
    const page = (method: string, path: string) => call(PAGE, { method, path, headers: { 'accept-language': 'fr' } });
    const transfer = (path: string, body: string, contentType: string, from = origin) =>
      call(TRANSFER, {
        method: 'POST',
        path: `${path}/transfer`,
        body,
        headers: { 'content-type': contentType, origin: from },
      });
    const asJson = (path: string, body: unknown, from = origin) => transfer(path, json(body), 'application/json', from);
    const asForm = (path: string, body: Record<string, string>, from = origin) =>
      transfer(path, new URLSearchParams(body).toString(), 'application/x-www-form-urlencoded', from);

    // /admin/keys/{cle}/buyer-link
    const first = await linkedKey('un.exemple.fr');
    expect((await link(first.cle, { ttl: 59 })).status).toBe(400);
    expect((await link(first.cle, {}, false)).status).toBe(401);
    expect((await link('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).status).toBe(404);
    expect((await postAs('text/plain', LINK, `/admin/keys/${first.cle}/buyer-link`, '{}')).status).toBe(415);
    expect((await link(first.cle, ' '.repeat(70_000))).status).toBe(413);
    expect((await get(LINK, `/admin/keys/${first.cle}/buyer-link`)).status).toBe(405);

    // /buyer/buyer.css and /buyer/{token}
    for (const method of ['GET', 'HEAD']) {
      expect((await call('/buyer/buyer.css', { method, path: '/buyer/buyer.css' })).status).toBe(200);
      expect((await page(method, first.path)).status).toBe(200);
      expect((await page(method, '/buyer/nope')).status).toBe(404);
    }
    expect((await call('/buyer/buyer.css', { method: 'POST', path: '/buyer/buyer.css' })).status).toBe(405);
    expect((await call(PAGE, { method: 'PUT', path: first.path })).status).toBe(405);
    expect((await call(TRANSFER, { method: 'GET', path: `${first.path}/transfer` })).status).toBe(405);

    // /buyer/{token}/transfer: what is refused, as a page and as JSON.
    for (const send of [asJson, asForm]) {
      expect((await send(first.path, { from: 'deux.fr' }, 'https://elsewhere.example')).status).toBe(403);
      expect((await send('/buyer/nope', { from: 'deux.fr' })).status).toBe(404);
      expect((await send(first.path, { from: 'deux.fr' })).status).toBe(409);
      expect((await send(first.path, { from: 'exemple.fr', to: 'localhost' })).status).toBe(400);
    }
    expect((await transfer(first.path, 'from=exemple.fr', 'text/plain')).status).toBe(415);
    expect((await transfer(first.path, `from=${'a'.repeat(9000)}`, 'application/x-www-form-urlencoded')).status).toBe(
      413,
    );
    // Three transfers of one lineage (JSON, a form, JSON), each link dying with its key (410), and
    // the fourth in 30 days refused (429).
    const second = field(await asJson(first.path, { from: 'exemple.fr', to: 'deux.fr' }), 'cle');
    expect((await asJson(first.path, { from: 'deux.fr' })).status).toBe(410);
    expect((await asForm(first.path, { from: 'deux.fr' })).status).toBe(410);
    for (const method of ['GET', 'HEAD']) expect((await page(method, first.path)).status).toBe(410);
    const linkOf = async (cle: string) => {
      const url = field(await link(cle, { ttl: 3600 }), 'url');
      buyerLinks.push(url);
      return new URL(url).pathname;
    };
    const done = await asForm(await linkOf(second), { from: 'deux.fr', to: 'trois.fr' });
    expect(done.status).toBe(200);
    const third = /[0-9A-Z]{5}(?:-[0-9A-Z]{5}){4}/.exec(done.text)?.[0] ?? '';
    issuedKeys.push(third);
    const fourth = field(await asJson(await linkOf(third), { from: 'trois.fr', to: 'quatre.fr' }), 'cle');
    const last = await linkOf(fourth);
    expect((await asJson(last, { from: 'quatre.fr', to: 'cinq.fr' })).status).toBe(429);
    expect((await asForm(last, { from: 'quatre.fr', to: 'cinq.fr' })).status).toBe(429);
    // A key no longer alive gets no link.
    expect((await link(first.cle)).status).toBe(409);
    // The address's buyer requests, 30 in any 60 s (docs/protocol.md#buyer-links): once spent, the
    // page and the transfer are 429s with Retry-After, before the token is looked at.
    let spent = 0;
    while ((await page('GET', '/buyer/nope')).status === 404) spent += 1;
    expect(spent).toBeLessThan(30);
    for (const method of ['GET', 'HEAD']) expect((await page(method, last)).status).toBe(429);
    for (const send of [asJson, asForm]) expect((await send(last, { from: 'quatre.fr' })).status).toBe(429);
    server.clock.advance(60);
    // No log line holds a link or its token (docs/protocol.md#buyer-links).
    const tokens = buyerLinks.map((url) => new URL(url).pathname.slice('/buyer/'.length));
    expect(linesHolding(server.lines, [...buyerLinks, ...tokens])).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('documents what the service sends to an endpoint: each event type, its body and its headers (`webhooks`)', async () => {
    // Every event of the tests above went to the collector's endpoint too; a deliverer (as `licence
    // serve` runs one) sends them, on the server's clock. A round sends one per endpoint: drain.
    const deliverer = createWebhookDeliverer({
      store: server.store,
      clock: server.clock,
      logger: captureLogs().logger,
      allowPrivate: true,
    });
    let rounds = 0;
    while ((await deliverer.runOnce()) > 0) rounds += 1;
    expect(rounds).toBeGreaterThan(0);
    const types = new Set<string>();
    const mismatches: string[] = [];
    for (const request of collector.received) {
      const body: unknown = JSON.parse(request.body);
      const type = isRecord(body) && typeof body.type === 'string' ? body.type : '';
      types.add(type);
      mismatches.push(...checkWebhook(type, request));
    }
    expect(mismatches).toEqual([]);
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    // One request per event: the collector answered 204 to each, the first time.
    expect(collector.received.length).toBe(new Set(collector.received.map((r) => r.headers['webhook-id'])).size);
  });

  it('documents the console: its page, its files, and their security headers (docs/protocol.md#console)', async () => {
    const page = (method: string, headers: Readonly<Record<string, string>> = {}) =>
      call('/console', { method, path: '/console', headers });
    const english = await page('GET');
    expect(english.status).toBe(200);
    expect(english.text).toContain('<html lang="en"');
    const french = await page('GET', { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    expect(french.text).toContain('<html lang="fr"');
    expect((await page('HEAD')).status).toBe(200);
    expect((await page('POST')).status).toBe(405);
    for (const method of ['GET', 'HEAD']) {
      expect((await call('/console/', { method, path: '/console/' })).status).toBe(308);
    }
    expect((await call('/console/', { method: 'DELETE', path: '/console/' })).status).toBe(405);
    // Every file of the build: its media type must be documented.
    const files = Object.keys(consoleAssets.files).filter((name) => name !== 'index.html');
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      expect((await call('/console/{asset}', { method: 'GET', path: `/console/${name}` })).status).toBe(200);
      expect((await call('/console/{asset}', { method: 'HEAD', path: `/console/${name}` })).status).toBe(200);
    }
    // The page is served at /console only, where its relative links point to its files.
    for (const method of ['GET', 'HEAD']) {
      expect((await call('/console/{asset}', { method, path: '/console/index.html' })).status).toBe(404);
      expect((await call('/console/{asset}', { method, path: '/console/nope.js' })).status).toBe(404);
    }
    expect((await call('/console/{asset}', { method: 'PUT', path: `/console/${files[0]}` })).status).toBe(405);
    expect(failures).toEqual([]);
  });

  it('documents the faults: a corrupt record is a 500, a store that is down a 503 (never a signed refusal)', async () => {
    // A key row the store returns but core refuses (a trial without an end): an internal fault.
    const trial = field(await postKeys({ produit: 'theme', kind: 'trial', expire: '2026-12-01T00:00:00Z' }), 'cle');
    const db = openSqliteFile(server.dbFile);
    try {
      expect(db.prepare("UPDATE keys SET expires_at = NULL WHERE kind = 'trial'").run().changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    for (const path of ['/api/licence', '/api/license']) {
      expect((await postPublic(path, json({ cle: trial, url: 'essai.fr' }))).status).toBe(500);
    }

    await server.store.close();
    for (const path of ['/api/licence', '/api/license']) {
      expect((await postPublic(path, json({ cle: 'AAAAA', url: 'exemple.fr' }))).status).toBe(503);
    }
    expect((await call('/healthz', { method: 'GET', path: '/healthz' })).status).toBe(503);
    expect((await call('/healthz', { method: 'HEAD', path: '/healthz' })).status).toBe(503);
    expect(failures).toEqual([]);
  });

  it('reached every documented answer, and validated each one', () => {
    const documented = documentedTriples();
    const missing = [...documented].filter((triple) => !reached.has(triple));
    const undocumented = [...reached].filter((triple) => !documented.has(triple));
    expect(missing).toEqual([]);
    expect(undocumented).toEqual([]);
    // Every documented path was hit.
    for (const path of Object.keys(paths))
      expect([...reached].some((triple) => triple.split(' ')[1] === path)).toBe(true);
    expect(reached.size).toBe(documented.size);
    // 175 documented (path, method, status) triples today, plus 27 (path, method) pairs answered
    // 405; every answer received was validated (none skipped).
    expect(documented.size).toBe(175);
    const distinct = new Set(validated);
    expect(distinct.size).toBe(175 + 27);
    expect([...distinct].filter((triple) => triple.endsWith(' 405'))).toHaveLength(27);
    expect(validated).toHaveLength(answers);
  });

  it('never logged a key, an author token or a webhook secret it issued, or the admin token (docs/protocol.md#privacy)', () => {
    expect(issuedKeys.length).toBeGreaterThan(3);
    expect(issuedTokens).toHaveLength(3);
    // Three endpoints, and the author's up to its quota.
    expect(issuedSecrets).toHaveLength(3 + WEBHOOKS_PER_AUTHOR - 1);
    expect(
      linesHolding(server.lines, [
        ...issuedKeys.flatMap(keySpellings),
        ...issuedTokens,
        ...issuedSecrets,
        ...(server.adminToken === null ? [] : [server.adminToken]),
      ]),
    ).toEqual([]);
  });

  it('the checker itself refuses what the document does not allow', () => {
    const problem = JSON.stringify({ type: 'https://licence.dev/problems/x', title: 'X', status: 400, detail: 'd' });
    const headers = {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    };
    // A status the operation does not list.
    expect(check('/api/licence', 'POST', { status: 418, headers, text: problem }, false)).toHaveLength(1);
    // A problem body missing `detail`.
    expect(
      check(
        '/api/licence',
        'POST',
        { status: 400, headers, text: JSON.stringify({ type: 'https://x/y', title: 'X', status: 400 }) },
        false,
      ),
    ).toHaveLength(1);
    // A verdict with a tenth field, and a wrong const header.
    const envelope = {
      donnees: {
        ok: true,
        motif: '',
        domaine: 'a.fr',
        essai: false,
        quand: '',
        emis: 1,
        revalider: 2,
        sursis: 3,
        hote: 'a.fr',
        extra: 1,
      },
      signature: `${'A'.repeat(86)}==`,
    };
    expect(
      check(
        '/api/licence',
        'POST',
        {
          status: 200,
          headers: {
            'content-type': 'application/json',
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
            'access-control-allow-origin': '*',
          },
          text: JSON.stringify(envelope),
        },
        false,
      ),
    ).toHaveLength(1);
    expect(
      check(
        '/api/licence',
        'POST',
        { status: 400, headers: { ...headers, 'cache-control': 'max-age=60' }, text: problem },
        false,
      ),
    ).toHaveLength(1);
    // A problem without nosniff (docs/protocol.md#request: on every answer).
    const { 'x-content-type-options': _sniffed, ...sniffable } = headers;
    expect(check('/api/licence', 'POST', { status: 400, headers: sniffable, text: problem }, false)).toHaveLength(1);
    // A 405 whose Allow is not the documented methods.
    expect(
      check('/api/licence', 'GET', { status: 405, headers: { ...headers, allow: 'POST' }, text: problem }, false),
    ).toHaveLength(1);
  });
});
