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

/** POST /admin/products with the admin token and these exact bytes. */
const postAdmin = (body: string) => (server: TestServer) =>
  send(server.url, {
    method: 'POST',
    path: '/admin/products',
    headers: { 'content-type': json, authorization: `Bearer ${server.adminToken ?? ''}` },
    body,
  });

/** POST /api/licence with this value as JSON text. */
const postJson = (value: unknown) => post(JSON.stringify(value));

/** POST /api/licence with the key AAAAA and this url. */
const postUrl = (url: unknown) => postJson({ cle: 'AAAAA', url });

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
/** The head of a product's JSON POST to `target`, with these header lines added. */
const postHead = (lines: readonly string[], target = '/api/licence'): string =>
  head([`POST ${target} HTTP/1.1`, 'Host: x', `User-Agent: ${PRODUCT_UA}`, `Content-Type: ${json}`, ...lines]);
const valid = '{"cle":"AAAAA","url":"exemple.fr"}';
const nest = (open: string, close: string, depth: number, inner = ''): string =>
  open.repeat(depth) + inner + close.repeat(depth);

/** A case answered with a problem of this status and type. */
const problemCase =
  (status: number, problem: string) =>
  (name: string, send: Hostile['send']): Hostile => ({ name, send, status, problem });
const invalid = problemCase(400, 'invalid-request');
const notFound = problemCase(404, 'not-found');
const tooLarge = problemCase(413, 'body-too-large');
const unsupported = problemCase(415, 'unsupported-media-type');
const headersTooLarge = problemCase(431, 'headers-too-large');
/** A case whose input is valid after all: a verdict naming `hote`. */
const verdictFor = (name: string, send: Hostile['send'], hote: string): Hostile => ({ name, send, status: 200, hote });

const cases: readonly Hostile[] = [
  // Broken JSON, several shapes (docs/protocol.md#request: invalid JSON is 400)
  invalid('JSON cut in the middle', post('{"cle": "AAAAA", "url": ')),
  invalid('JSON with single quotes', post("{'cle':'AAAAA','url':'exemple.fr'}")),
  invalid('JSON with a trailing comma', post('{"cle":"AAAAA","url":"exemple.fr",}')),
  invalid('an unterminated string', post('{"cle":"AAAAA')),
  invalid('two objects in a row', post(`${valid}{}`)),
  invalid('a bare word', post('undefined')),
  invalid('JSON with a comment', post('{"cle":"AAAAA",/* x */"url":"exemple.fr"}')),
  invalid('an empty object', post('{}')),

  // Deep nesting
  tooLarge('arrays nested 10,000 levels (20,000 bytes: over the cap)', post(nest('[', ']', 10_000))),
  tooLarge('objects nested 10,000 levels (over the cap)', post(nest('{"a":', '}', 10_000, '1'))),
  invalid('arrays nested 4,000 levels (under the cap: parsed, not an object)', post(nest('[', ']', 4000))),
  invalid('objects nested 1,300 levels under the cap', post(nest('{"a":', '}', 1300, '1'))),
  invalid('a cle nested 4,000 arrays deep', post(`{"url":"exemple.fr","cle":${nest('[', ']', 4000, '"AAAAA"')}}`)),
  invalid(
    'arrays nested 10,000 levels on the admin API (64 KiB cap: reaches the parser)',
    postAdmin(nest('[', ']', 10_000)),
  ),
  invalid('objects nested 10,000 levels on the admin API', postAdmin(nest('{"a":', '}', 10_000, '1'))),

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
    invalid(`cle is ${label}`, postJson({ cle: value, url: 'exemple.fr' })),
    invalid(`url is ${label}`, postUrl(value)),
    invalid(`produit is ${label}`, postJson({ cle: 'AAAAA', url: 'exemple.fr', produit: value })),
    invalid(`nonce is ${label}`, postJson({ cle: 'AAAAA', url: 'exemple.fr', nonce: value })),
  ]),
  invalid('a huge number as cle (1e999999 parses to Infinity)', post('{"cle":1e999999,"url":"exemple.fr"}')),
  invalid('a 40-digit integer as url', post('{"cle":"AAAAA","url":1234567890123456789012345678901234567890}')),

  // Sizes
  tooLarge('a 1 MB body (Content-Length over the cap)', post('x'.repeat(1024 * 1024))),
  tooLarge('a chunked body over 8 KiB (no Content-Length)', (server) =>
    send(server.url, {
      method: 'POST',
      path: '/api/licence',
      headers: baseHeaders,
      body: ' '.repeat(9000) + valid,
      chunkSize: 1000,
    }),
  ),
  verdictFor(
    'a chunked body under 8 KiB is read',
    (server) =>
      send(server.url, { method: 'POST', path: '/api/licence', headers: baseHeaders, body: valid, chunkSize: 7 }),
    'exemple.fr',
  ),

  // docs/protocol.md#request checks the size before the body: a 10,000-character key cannot reach
  // the key rule.
  tooLarge('a 10,000-character key makes the body too large', postJson({ cle: 'A'.repeat(10_000), url: 'exemple.fr' })),
  invalid(
    'an 8,000-character key (docs/protocol.md#key-normalisation: over 1024 is 400)',
    postJson({ cle: 'A'.repeat(8000), url: 'exemple.fr' }),
  ),
  invalid('a 10,000-character key in an admin path', (server) =>
    send(server.url, {
      method: 'GET',
      path: `/admin/keys/${'A'.repeat(10_000)}`,
      headers: { authorization: `Bearer ${server.adminToken ?? ''}` },
    }),
  ),
  invalid('a 3,000-character url', postUrl(`exemple.fr/${'a'.repeat(2990)}`)),

  // Bytes
  invalid('a raw NUL byte inside a JSON string', post(Buffer.from('{"cle":"AAA\u0000AA","url":"exemple.fr"}', 'utf8'))),
  verdictFor(
    'an escaped NUL in the key is dropped by normalisation (valid)',
    postJson({ cle: 'AAAAA\u0000', url: 'exemple.fr' }),
    'exemple.fr',
  ),
  invalid('NUL bytes after the JSON', post(Buffer.concat([Buffer.from(valid), Buffer.alloc(16)]))),
  invalid(
    'invalid UTF-8 bytes',
    post(
      Buffer.concat([
        Buffer.from('{"cle":"AAAAA\u00e9'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","url":"exemple.fr"}'),
      ]),
    ),
  ),
  invalid(
    'an overlong UTF-8 encoding of "/"',
    post(
      Buffer.concat([Buffer.from('{"cle":"AAAAA","url":"exemple.fr'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
    ),
  ),

  // RFC 8259 8.1: a parser MAY ignore a BOM; the service's UTF-8 decoder does.
  verdictFor(
    'a UTF-8 BOM before the JSON (ignored, RFC 8259 8.1)',
    post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)])),
    'exemple.fr',
  ),
  invalid('a UTF-16 body', post(Buffer.from(valid, 'utf16le'))),

  // Hosts (docs/protocol.md#host-normalisation: WHATWG URL, then the rules)
  invalid('a url with userinfo', postUrl('http://admin:pw@exemple.fr')),
  verdictFor(
    'http:\\\\exemple.fr: "http" becomes the host, a single label (a test host)',
    postUrl('http:\\\\exemple.fr'),
    'http',
  ),
  verdictFor('exemple.fr\\chemin: the backslash starts the path', postUrl('exemple.fr\\chemin'), 'exemple.fr'),
  verdictFor(
    'https://evil.fr\\@exemple.fr: the host is evil.fr, as browsers read it',
    postUrl('https://evil.fr\\@exemple.fr'),
    'evil.fr',
  ),
  verdictFor('ex%61mple.fr: percent-decoded in the host', postUrl('ex%61mple.fr'), 'example.fr'),
  invalid('%2e%2e: a host of empty labels', postUrl('%2e%2e')),
  verdictFor('exemple。fr: an ideographic full stop is a dot', postUrl('exemple\u3002fr'), 'exemple.fr'),
  verdictFor('full-width letters map to ASCII', postUrl('\uff45\uff58\uff45\uff4d\uff50\uff4c\uff45.fr'), 'exemple.fr'),
  invalid('an IPv6 zone', postUrl('http://[fe80::1%25eth0]/')),
  invalid('an IPv6 zone without brackets encoding', postUrl('[fe80::1%eth0]')),
  invalid('javascript: is no host', postUrl('javascript:alert(1)')),
  invalid('file: is not http(s)', postUrl('file:///etc/passwd')),
  verdictFor('a hex IPv4 loopback is a test host', postUrl('http://0x7f.1'), '127.0.0.1'),
  invalid('a label over 63 characters', postUrl(`${'a'.repeat(64)}.fr`)),
  // The URL Standard now keeps an ASCII xn-- label that is not valid punycode; the parser of Node 20
  // and 22 still refuses it (docs/protocol.md#host-normalisation).
  Number(process.versions.node.split('.')[0]) < 24
    ? invalid('invalid punycode', postUrl('http://xn--a.fr'))
    : verdictFor('invalid punycode: kept on Node 24, as the URL Standard says', postUrl('http://xn--a.fr'), 'xn--a.fr'),
  invalid('a port out of range', postUrl('exemple.fr:99999')),
  invalid(
    'a full-width key normalises to nothing (docs/protocol.md#key-normalisation: empty is 400)',
    postJson({ cle: '\uff21\uff21\uff21\uff21\uff21', url: 'exemple.fr' }),
  ),

  // JSON oddities
  verdictFor(
    'duplicate keys: the last one wins, as JSON.parse reads them',
    post('{"cle":"AAAAA","url":"evil.fr","url":"exemple.fr"}'),
    'exemple.fr',
  ),
  invalid('__proto__ holding the fields is not the fields', post('{"__proto__":{"cle":"AAAAA","url":"exemple.fr"}}')),
  verdictFor(
    '__proto__ beside the fields changes nothing (no produit appears)',
    post('{"cle":"AAAAA","url":"exemple.fr","__proto__":{"produit":"theme","nonce":"Zk3q9XbLr2Vt8WcN4yHs"}}'),
    'exemple.fr',
  ),
  verdictFor(
    'constructor.prototype beside the fields',
    post('{"constructor":{"prototype":{"cle":"X"}},"cle":"AAAAA","url":"exemple.fr"}'),
    'exemple.fr',
  ),

  // Content types
  unsupported('a JSON body sent as text/plain', post(valid, { 'content-type': 'text/plain' })),
  unsupported(
    'a JSON body as application/json-patch+json',
    post(valid, { 'content-type': 'application/json-patch+json' }),
  ),

  // docs/protocol.md#request: any charset parameter is fine; the body is read as UTF-8 (RFC 8259
  // 8.1), so a UTF-8 body announced as UTF-16 is read, and UTF-16 bytes are a 400 whatever the
  // header says.
  verdictFor(
    'a UTF-8 JSON body announced in UTF-16',
    post(valid, { 'content-type': 'application/json; charset=utf-16' }),
    'exemple.fr',
  ),
  verdictFor(
    'a UTF-8 JSON body announced in Latin-1',
    post(valid, { 'content-type': 'application/json; charset=latin1' }),
    'exemple.fr',
  ),
  invalid(
    'a UTF-16 body announced in UTF-16',
    post(Buffer.from(valid, 'utf16le'), { 'content-type': 'application/json; charset=utf-16' }),
  ),
  unsupported(
    'an XML body as application/xml',
    post('<licence><cle>AAAAA</cle><url>exemple.fr</url></licence>', { 'content-type': 'application/xml' }),
  ),
  invalid('an XML body sent as application/json', post('<licence><cle>AAAAA</cle><url>exemple.fr</url></licence>')),

  // Headers
  headersTooLarge("a header past Node's 16 KiB limit", post(valid, { 'x-big': 'b'.repeat(20_000) })),
  verdictFor(
    'a 10,000-character product User-Agent (under the limit)',
    post(valid, { 'user-agent': `MonTheme/${'1'.repeat(10_000)}` }),
    'exemple.fr',
  ),
  verdictFor(
    '500 headers',
    post(valid, Object.fromEntries(Array.from({ length: 500 }, (_unused, index) => [`x-h${index}`, 'v']))),
    'exemple.fr',
  ),
  headersTooLarge(
    '2,500 headers (past the header size limit)',
    post(valid, Object.fromEntries(Array.from({ length: 2500 }, (_unused, index) => [`x-header-${index}`, 'value']))),
  ),
  {
    name: 'a GET with a body (docs/protocol.md#request: method first)',
    send: (server) => send(server.url, { method: 'GET', path: '/api/licence', headers: baseHeaders, body: valid }),
    status: 405,
    problem: 'method-not-allowed',
  },

  // Request targets
  notFound('a target with .. before the endpoint', post(valid, {}, '/api/../api/licence')),
  notFound('a target with .. after the endpoint', post(valid, {}, '/api/licence/..')),
  {
    name: 'a target climbing out of /admin needs the token first',
    send: post(valid, {}, '/admin/../api/licence'),
    status: 401,
    problem: 'unauthorized',
  },
  notFound('a percent-encoded endpoint path is another path', post(valid, {}, '/api/licen%63e')),
  notFound('a double slash', post(valid, {}, '//api/licence')),
  verdictFor('a query string is ignored', post(valid, {}, '/api/licence?cle=BBBBB&url=evil.fr'), 'exemple.fr'),

  // Framing, over a raw socket
  invalid(
    'Content-Length shorter than the body (the rest is not a request)',
    raw(postHead(['Content-Length: 10']) + valid),
  ),
  invalid(
    'Content-Length longer than the body, a pipelined request swallowed into it',
    raw(
      postHead([`Content-Length: ${valid.length + 'GET /healthz '.length}`]) +
        valid +
        head(['GET /healthz HTTP/1.1', 'Host: x']),
    ),
  ),
  invalid(
    'Content-Length longer than the body, then the client stops sending',
    raw(postHead(['Content-Length: 100']) + valid, true),
  ),
  invalid(
    'two Content-Length headers that disagree',
    raw(postHead(['Content-Length: 35', 'Content-Length: 5']) + valid),
  ),
  invalid(
    'Content-Length and chunked together (RFC 9112 6.3: a smuggling shape)',
    raw(
      `${postHead(['Content-Length: 4', 'Transfer-Encoding: chunked'])}${valid.length.toString(16)}\r\n${valid}\r\n0\r\n\r\n`,
    ),
  ),
  invalid('a bad chunk size', raw(`${postHead(['Transfer-Encoding: chunked'])}zz\r\n${valid}\r\n0\r\n\r\n`)),
  invalid('an unknown method token', raw(head(['FROB /api/licence HTTP/1.1', 'Host: x', 'Connection: close']))),
  invalid(
    'a NUL byte in a header value',
    raw(head(['POST /api/licence HTTP/1.1', 'Host: x', `User-Agent: a\u0000b`, 'Content-Length: 0'])),
  ),

  // What Node would answer itself with an empty reply, or no reply at all (docs/protocol.md#errors)
  invalid('HTTP/1.1 without Host (RFC 9112 3.2)', raw(head(['GET /healthz HTTP/1.1', 'User-Agent: x']))),
  invalid('two Host headers (RFC 9112 3.2)', raw(postHead(['Host: y', `Content-Length: ${valid.length}`]) + valid)),
  problemCase(417, 'invalid-request')(
    'Expect: bogus (RFC 9110 10.1.1)',
    raw(postHead(['Expect: bogus', `Content-Length: ${valid.length}`]) + valid),
  ),
  verdictFor('Expect: 100-continue is met', post(valid, { expect: '100-continue' }), 'exemple.fr'),
  problemCase(405, 'method-not-allowed')(
    'CONNECT: this server is no proxy',
    raw(head(['CONNECT exemple.fr:443 HTTP/1.1', 'Host: exemple.fr:443'])),
  ),
  verdictFor(
    'Upgrade: websocket is served as an ordinary request (no upgrade is offered)',
    post(valid, { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' }),
    'exemple.fr',
  ),
  verdictFor(
    'Upgrade: h2c is served as an ordinary request',
    post(valid, {
      connection: 'Upgrade, HTTP2-Settings',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA',
    }),
    'exemple.fr',
  ),
  notFound(
    'a raw request target with .. (no client normalises it here)',
    raw(postHead([`Content-Length: ${valid.length}`, 'Connection: close'], '/api/licence/../licence') + valid),
  ),
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
  const answer = await postUrl('exemple.fr')(server);
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
