import { Agent } from 'node:http';
import { parseHost, verifyEnvelope } from '@licence/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord, send } from '@licence/http-vector-runner';
import { keySpellings, linesHolding } from './capture-logs.js';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * 10,000 random bodies POSTed over loopback to ONE real server: never a 5xx, and every 200 is an
 * envelope that verifies (core's verifyEnvelope) for the host the request really named, answered
 * only to a request whose `cle` and `url` were strings (docs/protocol.md#errors: never a 200 for
 * invalid input).
 *
 * The rate limit (docs/protocol.md#rate-limit) would turn most of them into 429s from one address,
 * so the server trusts one proxy hop and each request comes "from" its own address of 198.18.0.0/15
 * (RFC 2544's benchmarking range) in X-Forwarded-For.
 */

const RUNS = 10_000;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let server: TestServer;
const keys: string[] = [];
const statuses = new Map<number, number>();
let sent = 0;

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await send(server.url, {
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${server.adminToken ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    agent,
  });
  const parsed: unknown = JSON.parse(answer.text);
  if (answer.status >= 300 || !isRecord(parsed)) throw new Error(`${path}: ${answer.status} ${answer.text}`);
  return parsed;
}

beforeAll(async () => {
  server = await startTestServer({ clockStartMs: Date.UTC(2026, 10, 22, 10, 14, 0), trustProxy: { hops: 1 } });
  await admin('/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
  await admin('/admin/products', { id: 'plugin', author: 'atelier', name: 'Plugin' });
  for (const body of [
    { produit: 'theme', kind: 'buyer', sites: 3 },
    { produit: 'theme', kind: 'buyer' },
    { produit: 'plugin', kind: 'dev' },
    { produit: 'plugin', kind: 'trial', expire: '2026-12-01T00:00:00Z' },
  ]) {
    const cle = (await admin('/admin/keys', body)).cle;
    if (typeof cle === 'string') keys.push(cle);
  }
  // A revoked key and a regenerated one answer refusals: real keys in every state.
  const revoked = keys[1] ?? '';
  await admin(`/admin/keys/${revoked}/revoke`, { reason: 'test' });
  const replaced = (await admin('/admin/keys', { produit: 'plugin', kind: 'buyer' })).cle;
  if (typeof replaced === 'string') {
    keys.push(replaced);
    await admin(`/admin/keys/${replaced}/regenerate`, {});
  }
});

afterAll(async () => {
  agent.destroy();
  await server.close();
});

const HOSTS = [
  'exemple.fr',
  'https://www.boutique.exemple.fr/panier',
  'autre.fr',
  'b.fr',
  'c.fr',
  'localhost:3000',
  'staging.exemple.fr',
  '192.168.1.20',
  'http://[::1]:8080/',
  'exemple\u3002fr',
  'co.uk',
  'myshopify.com',
  'ftp://exemple.fr',
  'http://admin:pw@exemple.fr',
];
const PRODUCTS = ['theme', 'plugin', 'inconnu', 'Mon Theme', ''];
const NONCES = ['Zk3q9XbLr2Vt8WcN4yHs', 'short', 'a'.repeat(64), 'a'.repeat(65), 'has space in it!!'];

/** A field value: mostly realistic strings (and variants), often anything at all. */
function fieldValue(real: () => readonly string[]): fc.Arbitrary<unknown> {
  const realOne = fc.integer({ min: 0, max: 1000 }).map((index) => {
    const values = real();
    return values[index % values.length] ?? '';
  });
  return fc.oneof(
    { weight: 5, arbitrary: realOne },
    {
      weight: 2,
      arbitrary: realOne.chain((value) =>
        fc.constantFrom(value.toLowerCase(), ` ${value} `, value.replaceAll('-', ''), `${value}x`, value.slice(1)),
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
      ),
    },
  );
}

interface RandomBody {
  readonly bytes: Buffer;
  /** The parsed value when the body is JSON text, to judge the answer. */
  readonly json: unknown;
}

const fieldsBody = fc
  .tuple(
    fc.record(
      {
        cle: fieldValue(() => keys),
        url: fieldValue(() => HOSTS),
        produit: fieldValue(() => PRODUCTS),
        nonce: fieldValue(() => NONCES),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  )
  .map(([fields, extra]) => ({ ...extra, ...fields }));

/** Requests a real product would send: a real key (any spelling), a real host, valid options. */
const likelyValidBody = fc.record(
  {
    cle: fc.oneof(
      fieldValue(() => keys),
      fc.constantFrom('AAAAA', 'ZZZZZ-ZZZZZ'),
    ),
    url: fc.constantFrom(...HOSTS.slice(0, 10)),
    produit: fc.constantFrom('theme', 'plugin', 'inconnu'),
    nonce: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
  },
  { requiredKeys: ['cle', 'url'] },
);

const bodies: fc.Arbitrary<RandomBody> = fc.oneof(
  {
    weight: 3,
    arbitrary: likelyValidBody.map((value) => ({ bytes: Buffer.from(JSON.stringify(value), 'utf8'), json: value })),
  },
  {
    weight: 6,
    arbitrary: fieldsBody.map((value) => ({ bytes: Buffer.from(JSON.stringify(value), 'utf8'), json: value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .jsonValue()
      .map((value) => ({ bytes: Buffer.from(JSON.stringify(value) ?? 'null', 'utf8'), json: value })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 9000 }).map((bytes) => ({ bytes: Buffer.from(bytes), json: undefined })),
  },
  // Past the 8 KiB of docs/protocol.md#limits: random bytes rarely get there on their own.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 8193, max: 20_000 }), fc.uint8Array({ maxLength: 64 }))
      .map(([size, bytes]) => ({
        bytes: Buffer.concat([Buffer.from(bytes), Buffer.alloc(size, 0x20)]),
        json: undefined,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: 'binary', maxLength: 200 })
      .map((text) => ({ bytes: Buffer.from(text, 'utf8'), json: undefined })),
  },
);

/** The n-th address of 198.18.0.0/15. */
function forwardedFor(index: number): string {
  return `198.${18 + ((index >> 16) & 1)}.${(index >> 8) & 255}.${index & 255}`;
}

/** Why an answer breaks the property, or null when it holds. */
function judge(status: number, contentType: string | undefined, text: string, body: RandomBody): string | null {
  if (status >= 500) return `a ${status}: ${text}`;
  if (status !== 200) {
    if (contentType !== 'application/problem+json')
      return `a ${status} that is not a problem: ${contentType ?? 'no content type'}`;
    const problem: unknown = JSON.parse(text);
    return isRecord(problem) && problem.status === status ? null : `a ${status} with a wrong problem body: ${text}`;
  }
  // docs/protocol.md#canonical-form: the service only ever emits ASCII in donnees (and the
  // signature is base64).
  if (!/^[\x20-\x7e]*$/.test(text)) return `a 200 that is not printable ASCII: ${text}`;
  // A 200: the request must have been valid, and the envelope must verify for the host it named.
  const fields = body.json;
  if (!isRecord(fields) || typeof fields.cle !== 'string' || typeof fields.url !== 'string')
    return `a 200 for a body without string cle and url: ${text}`;
  const hote = parseHost(fields.url).hote;
  const envelope: unknown = JSON.parse(text);
  const expectation = {
    hote,
    ...(typeof fields.produit === 'string' ? { produit: fields.produit } : {}),
    ...(typeof fields.nonce === 'string' ? { nonce: fields.nonce } : {}),
  };
  return verifyEnvelope(envelope, [server.publicKey], expectation)
    ? null
    : `a 200 that does not verify for ${hote}: ${text}`;
}

describe('random bodies over loopback', () => {
  it(`${RUNS} random bodies: never a 5xx, every 200 verifies`, async () => {
    expect(keys).toHaveLength(5);
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await send(server.url, {
          method: 'POST',
          path: sent % 2 === 0 ? '/api/licence' : '/api/license',
          headers: {
            'user-agent': PRODUCT_UA,
            'content-type': 'application/json',
            'x-forwarded-for': `203.0.113.9, ${forwardedFor(sent)}`,
          },
          body: body.bytes,
          agent,
        });
        sent += 1;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const failure = judge(answer.status, answer.headers['content-type'], answer.text, body);
        if (failure !== null) throw new Error(failure);
      }),
      // A failure prints its seed; shrinking 10,000 HTTP runs would only add noise.
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(sent).toBe(RUNS);
    console.info(
      `random bodies: answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    // The property was not vacuous: verdicts, bad bodies and oversized ones were all answered,
    // and no request was rate-limited (each came from its own address).
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 10);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 10);
    expect(statuses.get(413) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(429)).toBeUndefined();
  }, 120_000);

  it('the server is still up and logged no fault', async () => {
    const answer = await send(server.url, {
      method: 'POST',
      path: '/api/licence',
      headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json' },
      body: JSON.stringify({ cle: keys[0], url: 'exemple.fr' }),
      agent,
    });
    expect(answer.status).toBe(200);
    const entries = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => typeof entry.level === 'number' && entry.level >= 50)).toEqual([]);
    // docs/protocol.md#privacy: none of the keys (sent thousands of times, in several spellings)
    // nor the token.
    expect(
      linesHolding(server.lines, [
        ...keys.flatMap(keySpellings),
        ...(server.adminToken === null ? [] : [server.adminToken]),
      ]),
    ).toEqual([]);
  });
});
