import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEnvelope, exchange, isRecord, send } from '@licence/http-vector-runner';
import type { HttpAnswer } from '@licence/http-vector-runner';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * Hostile requests against the real server, each with its exact answer: a 4xx problem of the
 * right type, or a verified 200 where the input is in fact valid (docs/protocol.md#errors: bad
 * input gets a clear error, never a 5xx, never a crash, never a 200 for invalid input). After each
 * one the server still answers a normal request.
 */

interface Hostile {
  readonly name: string;
  readonly send: (server: TestServer) => Promise<HttpAnswer>;
  readonly status: number;
  /** The last segment of the problem `type` (every error of the service is a problem). */
  readonly problem?: string;
  /** For a 200: the host the verdict must name (and verify for). */
  readonly hote?: string;
}

const json = 'application/json';
const baseHeaders = { 'user-agent': PRODUCT_UA, 'content-type': json };

/** POST /api/licence with these exact bytes. */
const post =
  (body: string | Uint8Array, headers: Readonly<Record<string, string | undefined>> = {}, path = '/api/licence') =>
  (server: TestServer) =>
    send(server.url, { method: 'POST', path, headers: { ...baseHeaders, ...headers }, body });

/** POST /api/licence with this value as JSON text. */
const postJson = (value: unknown) => post(JSON.stringify(value));

/** Raw bytes on a socket; the first answer is the one judged, the connection must end. */
const raw =
  (text: string | Uint8Array, halfClose = false) =>
  async (server: TestServer): Promise<HttpAnswer> => {
    const result = await exchange(server.url, text, { halfClose });
    expect(result.ended).toBe('closed');
    // Never an answer that a smuggled or leftover request could have produced.
    expect(result.answers.every((answer) => answer.status !== 200)).toBe(true);
    const first = result.answers[0];
    if (first === undefined) throw new Error('the server closed the connection without an answer');
    return first;
  };

const head = (lines: readonly string[]): string => `${lines.join('\r\n')}\r\n\r\n`;
const valid = '{"cle":"AAAAA","url":"exemple.fr"}';
const nest = (open: string, close: string, depth: number, inner = ''): string =>
  open.repeat(depth) + inner + close.repeat(depth);

const cases: readonly Hostile[] = [
  // Broken JSON, several shapes (docs/protocol.md#request: invalid JSON is 400)
  { name: 'JSON cut in the middle', send: post('{"cle": "AAAAA", "url": '), status: 400, problem: 'invalid-request' },
  {
    name: 'JSON with single quotes',
    send: post("{'cle':'AAAAA','url':'exemple.fr'}"),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'JSON with a trailing comma',
    send: post('{"cle":"AAAAA","url":"exemple.fr",}'),
    status: 400,
    problem: 'invalid-request',
  },
  { name: 'an unterminated string', send: post('{"cle":"AAAAA'), status: 400, problem: 'invalid-request' },
  { name: 'two objects in a row', send: post(`${valid}{}`), status: 400, problem: 'invalid-request' },
  { name: 'a bare word', send: post('undefined'), status: 400, problem: 'invalid-request' },
  {
    name: 'JSON with a comment',
    send: post('{"cle":"AAAAA",/* x */"url":"exemple.fr"}'),
    status: 400,
    problem: 'invalid-request',
  },
  { name: 'an empty object', send: post('{}'), status: 400, problem: 'invalid-request' },

  // Deep nesting
  {
    name: 'arrays nested 10,000 levels (20,000 bytes: over the cap)',
    send: post(nest('[', ']', 10_000)),
    status: 413,
    problem: 'body-too-large',
  },
  {
    name: 'objects nested 10,000 levels (over the cap)',
    send: post(nest('{"a":', '}', 10_000, '1')),
    status: 413,
    problem: 'body-too-large',
  },
  {
    name: 'arrays nested 4,000 levels (under the cap: parsed, not an object)',
    send: post(nest('[', ']', 4000)),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'objects nested 1,300 levels under the cap',
    send: post(nest('{"a":', '}', 1300, '1')),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a cle nested 4,000 arrays deep',
    send: post(`{"url":"exemple.fr","cle":${nest('[', ']', 4000, '"AAAAA"')}}`),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'arrays nested 10,000 levels on the admin API (64 KiB cap: reaches the parser)',
    send: (server) =>
      send(server.url, {
        method: 'POST',
        path: '/admin/products',
        headers: { 'content-type': json, authorization: `Bearer ${server.adminToken ?? ''}` },
        body: nest('[', ']', 10_000),
      }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'objects nested 10,000 levels on the admin API',
    send: (server) =>
      send(server.url, {
        method: 'POST',
        path: '/admin/products',
        headers: { 'content-type': json, authorization: `Bearer ${server.adminToken ?? ''}` },
        body: nest('{"a":', '}', 10_000, '1'),
      }),
    status: 400,
    problem: 'invalid-request',
  },

  // Values of the wrong type where strings go (docs/protocol.md#request: a non-string is 400)
  ...(
    [
      ['a number', 12345],
      ['an array', ['AAAAA']],
      ['an object', { cle: 'AAAAA' }],
      ['a boolean', true],
      ['null', null],
    ] as const
  ).flatMap(([label, value]): Hostile[] => [
    {
      name: `cle is ${label}`,
      send: postJson({ cle: value, url: 'exemple.fr' }),
      status: 400,
      problem: 'invalid-request',
    },
    { name: `url is ${label}`, send: postJson({ cle: 'AAAAA', url: value }), status: 400, problem: 'invalid-request' },
    {
      name: `produit is ${label}`,
      send: postJson({ cle: 'AAAAA', url: 'exemple.fr', produit: value }),
      status: 400,
      problem: 'invalid-request',
    },
    {
      name: `nonce is ${label}`,
      send: postJson({ cle: 'AAAAA', url: 'exemple.fr', nonce: value }),
      status: 400,
      problem: 'invalid-request',
    },
  ]),
  {
    name: 'a huge number as cle (1e999999 parses to Infinity)',
    send: post('{"cle":1e999999,"url":"exemple.fr"}'),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a 40-digit integer as url',
    send: post('{"cle":"AAAAA","url":1234567890123456789012345678901234567890}'),
    status: 400,
    problem: 'invalid-request',
  },

  // Sizes
  {
    name: 'a 1 MB body (Content-Length over the cap)',
    send: post('x'.repeat(1024 * 1024)),
    status: 413,
    problem: 'body-too-large',
  },
  {
    name: 'a chunked body over 8 KiB (no Content-Length)',
    send: (server) =>
      send(server.url, {
        method: 'POST',
        path: '/api/licence',
        headers: baseHeaders,
        body: ' '.repeat(9000) + valid,
        chunkSize: 1000,
      }),
    status: 413,
    problem: 'body-too-large',
  },
  {
    name: 'a chunked body under 8 KiB is read',
    send: (server) =>
      send(server.url, { method: 'POST', path: '/api/licence', headers: baseHeaders, body: valid, chunkSize: 7 }),
    status: 200,
    hote: 'exemple.fr',
  },
  // docs/protocol.md#request checks the size before the body: a 10,000-character key cannot reach
  // the key rule.
  {
    name: 'a 10,000-character key makes the body too large',
    send: postJson({ cle: 'A'.repeat(10_000), url: 'exemple.fr' }),
    status: 413,
    problem: 'body-too-large',
  },
  {
    name: 'an 8,000-character key (docs/protocol.md#key-normalisation: over 1024 is 400)',
    send: postJson({ cle: 'A'.repeat(8000), url: 'exemple.fr' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a 10,000-character key in an admin path',
    send: (server) =>
      send(server.url, {
        method: 'GET',
        path: `/admin/keys/${'A'.repeat(10_000)}`,
        headers: { authorization: `Bearer ${server.adminToken ?? ''}` },
      }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a 3,000-character url',
    send: postJson({ cle: 'AAAAA', url: `exemple.fr/${'a'.repeat(2990)}` }),
    status: 400,
    problem: 'invalid-request',
  },

  // Bytes
  {
    name: 'a raw NUL byte inside a JSON string',
    send: post(Buffer.from('{"cle":"AAA\u0000AA","url":"exemple.fr"}', 'utf8')),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'an escaped NUL in the key is dropped by normalisation (valid)',
    send: postJson({ cle: 'AAAAA\u0000', url: 'exemple.fr' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'NUL bytes after the JSON',
    send: post(Buffer.concat([Buffer.from(valid), Buffer.alloc(16)])),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'invalid UTF-8 bytes',
    send: post(
      Buffer.concat([
        Buffer.from('{"cle":"AAAAA\u00e9'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","url":"exemple.fr"}'),
      ]),
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'an overlong UTF-8 encoding of "/"',
    send: post(
      Buffer.concat([Buffer.from('{"cle":"AAAAA","url":"exemple.fr'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
    ),
    status: 400,
    problem: 'invalid-request',
  },
  // RFC 8259 8.1: a parser MAY ignore a BOM; the service's UTF-8 decoder does.
  {
    name: 'a UTF-8 BOM before the JSON (ignored, RFC 8259 8.1)',
    send: post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)])),
    status: 200,
    hote: 'exemple.fr',
  },
  { name: 'a UTF-16 body', send: post(Buffer.from(valid, 'utf16le')), status: 400, problem: 'invalid-request' },

  // Hosts (docs/protocol.md#host-normalisation: WHATWG URL, then the rules)
  {
    name: 'a url with userinfo',
    send: postJson({ cle: 'AAAAA', url: 'http://admin:pw@exemple.fr' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'http:\\\\exemple.fr: "http" becomes the host, a single label (a test host)',
    send: postJson({ cle: 'AAAAA', url: 'http:\\\\exemple.fr' }),
    status: 200,
    hote: 'http',
  },
  {
    name: 'exemple.fr\\chemin: the backslash starts the path',
    send: postJson({ cle: 'AAAAA', url: 'exemple.fr\\chemin' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'https://evil.fr\\@exemple.fr: the host is evil.fr, as browsers read it',
    send: postJson({ cle: 'AAAAA', url: 'https://evil.fr\\@exemple.fr' }),
    status: 200,
    hote: 'evil.fr',
  },
  {
    name: 'ex%61mple.fr: percent-decoded in the host',
    send: postJson({ cle: 'AAAAA', url: 'ex%61mple.fr' }),
    status: 200,
    hote: 'example.fr',
  },
  {
    name: '%2e%2e: a host of empty labels',
    send: postJson({ cle: 'AAAAA', url: '%2e%2e' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'exemple。fr: an ideographic full stop is a dot',
    send: postJson({ cle: 'AAAAA', url: 'exemple\u3002fr' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'full-width letters map to ASCII',
    send: postJson({ cle: 'AAAAA', url: '\uff45\uff58\uff45\uff4d\uff50\uff4c\uff45.fr' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'an IPv6 zone',
    send: postJson({ cle: 'AAAAA', url: 'http://[fe80::1%25eth0]/' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'an IPv6 zone without brackets encoding',
    send: postJson({ cle: 'AAAAA', url: '[fe80::1%eth0]' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'javascript: is no host',
    send: postJson({ cle: 'AAAAA', url: 'javascript:alert(1)' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'file: is not http(s)',
    send: postJson({ cle: 'AAAAA', url: 'file:///etc/passwd' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a hex IPv4 loopback is a test host',
    send: postJson({ cle: 'AAAAA', url: 'http://0x7f.1' }),
    status: 200,
    hote: '127.0.0.1',
  },
  {
    name: 'a label over 63 characters',
    send: postJson({ cle: 'AAAAA', url: `${'a'.repeat(64)}.fr` }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'invalid punycode',
    send: postJson({ cle: 'AAAAA', url: 'http://xn--a.fr' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a port out of range',
    send: postJson({ cle: 'AAAAA', url: 'exemple.fr:99999' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a full-width key normalises to nothing (docs/protocol.md#key-normalisation: empty is 400)',
    send: postJson({ cle: '\uff21\uff21\uff21\uff21\uff21', url: 'exemple.fr' }),
    status: 400,
    problem: 'invalid-request',
  },

  // JSON oddities
  {
    name: 'duplicate keys: the last one wins, as JSON.parse reads them',
    send: post('{"cle":"AAAAA","url":"evil.fr","url":"exemple.fr"}'),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: '__proto__ holding the fields is not the fields',
    send: post('{"__proto__":{"cle":"AAAAA","url":"exemple.fr"}}'),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: '__proto__ beside the fields changes nothing (no produit appears)',
    send: post('{"cle":"AAAAA","url":"exemple.fr","__proto__":{"produit":"theme","nonce":"Zk3q9XbLr2Vt8WcN4yHs"}}'),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'constructor.prototype beside the fields',
    send: post('{"constructor":{"prototype":{"cle":"X"}},"cle":"AAAAA","url":"exemple.fr"}'),
    status: 200,
    hote: 'exemple.fr',
  },

  // Content types
  {
    name: 'a JSON body sent as text/plain',
    send: post(valid, { 'content-type': 'text/plain' }),
    status: 415,
    problem: 'unsupported-media-type',
  },
  {
    name: 'a JSON body as application/json-patch+json',
    send: post(valid, { 'content-type': 'application/json-patch+json' }),
    status: 415,
    problem: 'unsupported-media-type',
  },
  // docs/protocol.md#request: any charset parameter is fine; the body is read as UTF-8 (RFC 8259
  // 8.1), so a UTF-8 body announced as UTF-16 is read, and UTF-16 bytes are a 400 whatever the
  // header says.
  {
    name: 'a UTF-8 JSON body announced in UTF-16',
    send: post(valid, { 'content-type': 'application/json; charset=utf-16' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'a UTF-8 JSON body announced in Latin-1',
    send: post(valid, { 'content-type': 'application/json; charset=latin1' }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: 'a UTF-16 body announced in UTF-16',
    send: post(Buffer.from(valid, 'utf16le'), { 'content-type': 'application/json; charset=utf-16' }),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'an XML body as application/xml',
    send: post('<licence><cle>AAAAA</cle><url>exemple.fr</url></licence>', { 'content-type': 'application/xml' }),
    status: 415,
    problem: 'unsupported-media-type',
  },
  {
    name: 'an XML body sent as application/json',
    send: post('<licence><cle>AAAAA</cle><url>exemple.fr</url></licence>'),
    status: 400,
    problem: 'invalid-request',
  },

  // Headers
  {
    name: "a header past Node's 16 KiB limit",
    send: post(valid, { 'x-big': 'b'.repeat(20_000) }),
    status: 431,
    problem: 'headers-too-large',
  },
  {
    name: 'a 10,000-character product User-Agent (under the limit)',
    send: post(valid, { 'user-agent': `MonTheme/${'1'.repeat(10_000)}` }),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: '500 headers',
    send: post(valid, Object.fromEntries(Array.from({ length: 500 }, (_unused, index) => [`x-h${index}`, 'v']))),
    status: 200,
    hote: 'exemple.fr',
  },
  {
    name: '2,500 headers (past the header size limit)',
    send: post(
      valid,
      Object.fromEntries(Array.from({ length: 2500 }, (_unused, index) => [`x-header-${index}`, 'value'])),
    ),
    status: 431,
    problem: 'headers-too-large',
  },
  {
    name: 'a GET with a body (docs/protocol.md#request: method first)',
    send: (server) => send(server.url, { method: 'GET', path: '/api/licence', headers: baseHeaders, body: valid }),
    status: 405,
    problem: 'method-not-allowed',
  },

  // Request targets
  {
    name: 'a target with .. before the endpoint',
    send: post(valid, {}, '/api/../api/licence'),
    status: 404,
    problem: 'not-found',
  },
  {
    name: 'a target with .. after the endpoint',
    send: post(valid, {}, '/api/licence/..'),
    status: 404,
    problem: 'not-found',
  },
  {
    name: 'a target climbing out of /admin needs the token first',
    send: post(valid, {}, '/admin/../api/licence'),
    status: 401,
    problem: 'unauthorized',
  },
  {
    name: 'a percent-encoded endpoint path is another path',
    send: post(valid, {}, '/api/licen%63e'),
    status: 404,
    problem: 'not-found',
  },
  { name: 'a double slash', send: post(valid, {}, '//api/licence'), status: 404, problem: 'not-found' },
  {
    name: 'a query string is ignored',
    send: post(valid, {}, '/api/licence?cle=BBBBB&url=evil.fr'),
    status: 200,
    hote: 'exemple.fr',
  },

  // Framing, over a raw socket
  {
    name: 'Content-Length shorter than the body (the rest is not a request)',
    send: raw(
      head([
        'POST /api/licence HTTP/1.1',
        'Host: x',
        `User-Agent: ${PRODUCT_UA}`,
        `Content-Type: ${json}`,
        'Content-Length: 10',
      ]) + valid,
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'Content-Length longer than the body, a pipelined request swallowed into it',
    send: raw(
      head([
        'POST /api/licence HTTP/1.1',
        'Host: x',
        `User-Agent: ${PRODUCT_UA}`,
        `Content-Type: ${json}`,
        `Content-Length: ${valid.length + 'GET /healthz '.length}`,
      ]) +
        valid +
        head(['GET /healthz HTTP/1.1', 'Host: x']),
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'Content-Length longer than the body, then the client stops sending',
    send: raw(
      head([
        'POST /api/licence HTTP/1.1',
        'Host: x',
        `User-Agent: ${PRODUCT_UA}`,
        `Content-Type: ${json}`,
        'Content-Length: 100',
      ]) + valid,
      true,
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'two Content-Length headers that disagree',
    send: raw(
      head([
        'POST /api/licence HTTP/1.1',
        'Host: x',
        `User-Agent: ${PRODUCT_UA}`,
        `Content-Type: ${json}`,
        'Content-Length: 35',
        'Content-Length: 5',
      ]) + valid,
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'Content-Length and chunked together (RFC 9112 6.3: a smuggling shape)',
    send: raw(
      `${head(['POST /api/licence HTTP/1.1', 'Host: x', `User-Agent: ${PRODUCT_UA}`, `Content-Type: ${json}`, 'Content-Length: 4', 'Transfer-Encoding: chunked'])}${valid.length.toString(16)}\r\n${valid}\r\n0\r\n\r\n`,
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a bad chunk size',
    send: raw(
      `${head(['POST /api/licence HTTP/1.1', 'Host: x', `User-Agent: ${PRODUCT_UA}`, `Content-Type: ${json}`, 'Transfer-Encoding: chunked'])}zz\r\n${valid}\r\n0\r\n\r\n`,
    ),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'an unknown method token',
    send: raw(head(['FROB /api/licence HTTP/1.1', 'Host: x', 'Connection: close'])),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a NUL byte in a header value',
    send: raw(head(['POST /api/licence HTTP/1.1', 'Host: x', `User-Agent: a\u0000b`, 'Content-Length: 0'])),
    status: 400,
    problem: 'invalid-request',
  },
  {
    name: 'a raw request target with .. (no client normalises it here)',
    send: raw(
      head([
        'POST /api/licence/../licence HTTP/1.1',
        'Host: x',
        `User-Agent: ${PRODUCT_UA}`,
        `Content-Type: ${json}`,
        `Content-Length: ${valid.length}`,
        'Connection: close',
      ]) + valid,
    ),
    status: 404,
    problem: 'not-found',
  },
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clockStartMs: Date.UTC(2026, 10, 22, 10, 14, 0) });
});

afterAll(async () => {
  await server.close();
});

/** A normal request: the server is still up and answering verdicts. */
async function stillAnswers(): Promise<void> {
  const answer = await postJson({ cle: 'AAAAA', url: 'exemple.fr' })(server);
  expect(answer.status).toBe(200);
  expect(checkEnvelope(JSON.parse(answer.text), { json: { url: 'exemple.fr' } }, server.publicKey)).toEqual([]);
}

describe('hostile requests', () => {
  it('the table holds at least 40 requests, with distinct names', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(cases.map((entry) => entry.name)).size).toBe(cases.length);
  });

  for (const entry of cases) {
    it(`${entry.name}: ${entry.status}${entry.problem === undefined ? '' : ` ${entry.problem}`}`, async () => {
      // A fresh rate-limit window for each request (docs/protocol.md#rate-limit: 60 s sliding), so
      // 429 never hides the answer.
      server.clock.advance(61);
      const answer = await entry.send(server);
      expect(answer.status, answer.text.slice(0, 300)).toBe(entry.status);
      expect(answer.status).toBeLessThan(500);
      if (entry.status === 200) {
        // docs/protocol.md#canonical-form: the service only ever emits ASCII in donnees (and the
        // signature is base64).
        expect(answer.text).toMatch(/^[\x20-\x7e]*$/);
        const body: unknown = JSON.parse(answer.text);
        expect(isRecord(body) && isRecord(body.donnees) ? body.donnees.hote : undefined).toBe(entry.hote);
        // produit and nonce are echoed only when really sent as fields
        // (docs/protocol.md#product-and-nonce).
        expect(checkEnvelope(body, { json: { url: undefined } }, server.publicKey)).toEqual([]);
      } else {
        expect(answer.headers['content-type']).toBe('application/problem+json');
        const problem: unknown = JSON.parse(answer.text);
        expect(problem).toMatchObject({ status: entry.status, title: expect.any(String), detail: expect.any(String) });
        expect(isRecord(problem) && typeof problem.type === 'string' ? problem.type.split('/').at(-1) : undefined).toBe(
          entry.problem,
        );
      }
      server.clock.advance(61);
      await stillAnswers();
    });
  }

  it('logged no fault: no error line, no 5xx', () => {
    const entries = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.length).toBeGreaterThan(cases.length);
    expect(entries.filter((entry) => typeof entry.level === 'number' && entry.level >= 50)).toEqual([]);
    expect(entries.filter((entry) => typeof entry.status === 'number' && entry.status >= 500)).toEqual([]);
  });
});
