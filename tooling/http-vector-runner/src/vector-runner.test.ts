import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNobleSigner, decodeBase64, parseHost, signDonnees } from '@licence/core';
import type { Donnees } from '@licence/core';
import { loadHttpVectors, loadSignatureVectors } from '@licence/vectors';
import type { HttpCase } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { loopbackServerForFile } from '../test/loopback-server.js';
import { createTestClock } from './test-clock.js';
import { buildRequest, checkAnswer, checkEnvelope, runHttpCase, substitute } from './vector-runner.js';
import { PRODUCT_UA } from './product-user-agent.js';

/**
 * The runner on its own, against a small real HTTP server on loopback that signs with the TEST
 * ONLY key of signatures.json (CONTRIBUTING.md#testing: a fake service is a real server, never a mocked fetch).
 */

const keys = loadSignatureVectors().keys;
const signer = createNobleSigner(decodeBase64(keys.primary.seed, 'seed', 32));
const PUBLIC_KEY = keys.primary.publicKey;

/** An `inconnue` verdict for the request's host, as the service would sign it (docs/protocol.md#verdict rule 1). */
function unknownKeyEnvelope(body: Record<string, unknown>, nowSeconds: number): unknown {
  const hote = parseHost(body.url).hote;
  const donnees: Donnees = {
    ok: false,
    motif: 'inconnue',
    domaine: '',
    essai: false,
    quand: '',
    emis: nowSeconds,
    revalider: nowSeconds + 86400,
    sursis: 2592000,
    hote,
    ...(typeof body.produit === 'string' ? { produit: body.produit } : {}),
    ...(typeof body.nonce === 'string' ? { nonce: body.nonce } : {}),
  };
  return signDonnees(donnees, signer);
}

let url = '';
/** The last request the fake service saw, to check what the runner sent. */
let lastRequest: { method: string; url: string; headers: IncomingMessage['headers']; body: string } | undefined;

function answer(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

loopbackServerForFile(
  (request, bytes, response) => {
    const body = bytes.toString('utf8');
    lastRequest = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    if (request.url === '/api/licence' && request.method === 'POST') {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      answer(
        response,
        200,
        { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
        JSON.stringify(unknownKeyEnvelope(parsed, 1795342440)),
      );
      return;
    }
    if (request.url === '/admin/authors/atelier/tokens' && request.method === 'POST') {
      answer(response, 201, { 'content-type': 'application/json' }, '{"id":"tok_one","token":"lat_secret-one"}');
      return;
    }
    if (request.url === '/admin/webhooks' && request.method === 'POST') {
      answer(response, 201, { 'content-type': 'application/json' }, '{"id":"wh_one","secret":"whsec_secret-one"}');
      return;
    }
    if (request.url === '/admin/me') {
      const seen = request.headers.authorization ?? '';
      answer(response, 200, { 'content-type': 'application/json' }, JSON.stringify({ seen, id: 'tok_one' }));
      return;
    }
    const problem = {
      type: 'https://licence.dev/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'no such path',
    };
    answer(
      response,
      404,
      { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
      JSON.stringify(problem),
    );
  },
  (started) => {
    url = started;
  },
);

function target(publicKey = PUBLIC_KEY) {
  return { url, adminToken: 'a-token-of-thirty-two-characters', publicKey, clock: createTestClock(0) };
}

const vectors = loadHttpVectors();
function vectorNamed(prefix: string): HttpCase {
  const found = vectors.cases.find((vector) => vector.name.startsWith(prefix));
  if (found === undefined) throw new Error(`no vector named ${prefix}`);
  return found;
}

describe('substitute', () => {
  it('replaces {name}, {name:lower} and {name:bare}', () => {
    const saved = new Map([['cle', 'ABCDE-FGHJK']]);
    expect(substitute('/admin/keys/{cle}', saved)).toBe('/admin/keys/ABCDE-FGHJK');
    expect(substitute('{cle:lower}', saved)).toBe('abcde-fghjk');
    expect(substitute('{cle:bare}', saved)).toBe('ABCDEFGHJK');
  });

  it('refuses a placeholder that names nothing saved (a bug in the vector)', () => {
    expect(() => substitute('{nope}', new Map())).toThrow('placeholder {nope} names nothing saved yet');
  });
});

describe('buildRequest', () => {
  it('gives /api/ paths the JSON type and the product User-Agent; null removes a default', () => {
    const sent = buildRequest(
      { method: 'POST', path: '/api/licence', body: { cle: 'X' }, headers: { 'user-agent': null } },
      new Map(),
      null,
    );
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['user-agent']).toBeUndefined();
    expect(sent.body?.toString('utf8')).toBe('{"cle":"X"}');
    const plain = buildRequest({ method: 'POST', path: '/api/licence', body: {} }, new Map(), null);
    expect(plain.headers['user-agent']).toBe(PRODUCT_UA);
  });

  it('gives /admin/ paths the runner token unless `auth` says otherwise', () => {
    expect(buildRequest({ method: 'GET', path: '/admin/keys/x' }, new Map(), 'tok').headers.authorization).toBe(
      'Bearer tok',
    );
    expect(
      buildRequest({ method: 'GET', path: '/admin/keys/x', auth: null }, new Map(), 'tok').headers.authorization,
    ).toBeUndefined();
    expect(
      buildRequest({ method: 'GET', path: '/admin/keys/x', auth: 'other' }, new Map(), 'tok').headers.authorization,
    ).toBe('Bearer other');
  });

  it('sends a saved author token named by `auth` (docs/protocol.md#authors)', () => {
    const saved = new Map([['t', 'lat_saved-token']]);
    expect(buildRequest({ method: 'GET', path: '/admin/me', auth: '{t}' }, saved, 'tok').headers.authorization).toBe(
      'Bearer lat_saved-token',
    );
    expect(() => buildRequest({ method: 'GET', path: '/admin/me', auth: '{u}' }, saved, 'tok')).toThrow(
      'placeholder {u} names nothing saved yet',
    );
  });

  it('builds raw bodies: raw, then rawRepeat, then rawEnd', () => {
    const sent = buildRequest(
      { method: 'POST', path: '/api/licence', raw: '{"a":"', rawRepeat: { text: 'x', times: 3 }, rawEnd: '"}' },
      new Map(),
      null,
    );
    expect(sent.body?.toString('utf8')).toBe('{"a":"xxx"}');
    expect(sent.json).toBeUndefined();
  });
});

describe('checkAnswer and checkEnvelope', () => {
  const sent = buildRequest({ method: 'GET', path: '/nowhere' }, new Map(), null);

  it('names a wrong status with the start of the body', () => {
    expect(checkAnswer({ status: 200 }, { status: 404, headers: {}, text: 'gone' }, sent, PUBLIC_KEY)).toEqual([
      'status 404, expected 200: gone',
    ]);
  });

  it('names a problem that is not RFC 9457, a wrong type and a missing header', () => {
    const failures = checkAnswer(
      { status: 404, problem: 'not-found', headers: { 'x-needed': '*present*' } },
      {
        status: 404,
        headers: { 'content-type': 'application/json' },
        text: '{"type":"https://licence.dev/problems/other","title":"t","status":404,"detail":"d"}',
      },
      sent,
      PUBLIC_KEY,
    );
    expect(failures).toEqual([
      'header x-needed: undefined, expected *present*',
      'content-type application/json, expected application/problem+json',
      'problem type https://licence.dev/problems/other, expected .../not-found',
    ]);
  });

  it('accepts an envelope signed for the host sent, and refuses one for another host or key', () => {
    const json = { cle: 'K', url: 'https://www.exemple.fr/x', nonce: 'abcdefghijklmnop' };
    const envelope = unknownKeyEnvelope(json, 1795342440);
    expect(checkEnvelope(envelope, { json }, PUBLIC_KEY)).toEqual([]);
    expect(checkEnvelope(envelope, { json }, keys.rotation.publicKey)).toEqual([
      `the envelope does not verify: ${JSON.stringify(envelope)}`,
    ]);
    const otherHost = checkEnvelope(envelope, { json: { ...json, url: 'autre.fr' } }, PUBLIC_KEY);
    expect(otherHost[0]).toBe('donnees.hote exemple.fr, but the url sent names autre.fr');
    // nonce echoed though the request did not send it
    expect(checkEnvelope(envelope, { json: { cle: 'K', url: 'https://www.exemple.fr/x' } }, PUBLIC_KEY)).toContain(
      'donnees.nonce present though not sent',
    );
  });
});

describe('runHttpCase against a real server on loopback', () => {
  it('saves fields, fills expected bodies with them, and counts only cle, token and secret as secrets', async () => {
    const vector: HttpCase = {
      name: 'synthetic tokens',
      steps: [
        {
          request: { method: 'POST', path: '/admin/authors/atelier/tokens', body: { label: 'x' } },
          expect: { status: 201, body: { id: 'tok_one' } },
          save: { t: 'token', t_id: 'id' },
        },
        {
          request: { method: 'GET', path: '/admin/me', auth: '{t}' },
          expect: { status: 200, body: { seen: 'Bearer lat_secret-one', id: '{t_id}' } },
        },
        {
          request: { method: 'GET', path: '/admin/me', auth: '{t}' },
          expect: { status: 200, body: { id: 'tok_{t_id}' } },
        },
        {
          request: { method: 'POST', path: '/admin/webhooks', body: { url: 'https://exemple.fr/hook' } },
          expect: { status: 201, body: { id: 'wh_one' } },
          save: { w: 'id', w_secret: 'secret' },
        },
      ],
    };
    const { failures, saved, secrets } = await runHttpCase(vector, target());
    expect(failures).toEqual(['step 3 (GET /admin/me): body.id: "tok_one", expected "tok_tok_one"']);
    expect([...saved.entries()]).toEqual([
      ['t', 'lat_secret-one'],
      ['t_id', 'tok_one'],
      ['w', 'wh_one'],
      ['w_secret', 'whsec_secret-one'],
    ]);
    // A webhook secret (docs/protocol.md#webhooks) is one; ids are not.
    expect(secrets).toEqual(['lat_secret-one', 'whsec_secret-one']);
  });

  it('passes a case the server answers as the vector says, and sends what the vector says', async () => {
    const vector = vectorNamed('an unknown path is 404');
    const { failures } = await runHttpCase(vector, target());
    expect(failures).toEqual([]);
    const step = vector.steps.at(-1);
    if (step === undefined || !('request' in step)) throw new Error('the vector ends with a request step');
    expect(lastRequest?.method).toBe(step.request.method);
    expect(lastRequest?.url).toBe(step.request.path);
  });

  it('verifies every 200 of /api/: the same case fails against another public key', async () => {
    const unknown = vectorNamed('rule 1:');
    const good = await runHttpCase(unknown, target());
    expect(good.failures).toEqual([]);
    expect(lastRequest?.headers['user-agent']).toBe(PRODUCT_UA);
    expect(lastRequest?.headers['content-type']).toBe('application/json');
    const bad = await runHttpCase(unknown, target(keys.rotation.publicKey));
    expect(bad.failures).toHaveLength(1);
    expect(bad.failures[0]).toMatch(/^step 1 \(POST \/api\/licence\): the envelope does not verify/);
  });

  it('moves the clock on advance steps and reports unsaved fields by step', async () => {
    const clock = createTestClock(1_000);
    const vector: HttpCase = {
      name: 'synthetic',
      steps: [
        { advance: 60 },
        {
          request: { method: 'GET', path: '/nowhere' },
          expect: { status: 404, problem: 'not-found' },
          save: { cle: 'cle' },
          repeat: 2,
        },
      ],
    };
    const { failures } = await runHttpCase(vector, { ...target(), clock });
    expect(clock.now()).toBe(61_000);
    expect(failures).toEqual([
      'step 2 (GET /nowhere, round 1): cannot save cle: no string field cle',
      'step 2 (GET /nowhere, round 2): cannot save cle: no string field cle',
    ]);
  });
});
