import { randomBytes } from 'node:crypto';
import { verifyEnvelope } from '@licence/core';
import { isRecord, keySpellings, linesHolding } from '@licence/http-vector-runner';
import { readExternalJson } from '@licence/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_UA, readResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * Every AWS sample event of packages/vectors/external/aws-lambda-events/ (aws-lambda-go's
 * testdata, see packages/vectors/external/README.md: REST v1, HTTP API v2 with four authorizer
 * set-ups, a Function URL, ALB with single and multi-value headers), its method, path and body
 * replaced by a real verification request and everything else kept (authorizers, stage, cookies,
 * certificates...), answered by the real handler on PostgreSQL: a signed verdict (core's
 * verifyEnvelope) in the result shape that integration expects.
 */

const postgres = await throwawayPostgres('lambda AWS sample events');

type Integration = 'rest' | 'http' | 'alb';
interface Sample {
  readonly file: string;
  readonly integration: Integration;
  /** Which header field the integration reads back in the result. */
  readonly resultHeaders: 'headers' | 'multiValueHeaders';
}

const SAMPLES: readonly Sample[] = [
  { file: 'apigw-request.json', integration: 'rest', resultHeaders: 'multiValueHeaders' },
  { file: 'apigw-v2-request-no-authorizer.json', integration: 'http', resultHeaders: 'headers' },
  { file: 'apigw-v2-request-jwt-authorizer.json', integration: 'http', resultHeaders: 'headers' },
  { file: 'apigw-v2-request-lambda-authorizer.json', integration: 'http', resultHeaders: 'headers' },
  { file: 'apigw-v2-request-iam.json', integration: 'http', resultHeaders: 'headers' },
  { file: 'lambda-urls-request.json', integration: 'http', resultHeaders: 'headers' },
  { file: 'alb-lambda-target-request-headers-only.json', integration: 'alb', resultHeaders: 'headers' },
  { file: 'alb-lambda-target-request-multivalue-headers.json', integration: 'alb', resultHeaders: 'multiValueHeaders' },
];

/** Sets a header the way the sample carries headers: in `headers` and/or `multiValueHeaders`, any case. */
function setHeader(event: Record<string, unknown>, name: string, value: string): void {
  for (const field of ['headers', 'multiValueHeaders'] as const) {
    const headers = event[field];
    if (!isRecord(headers)) continue;
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name) delete headers[existing];
    headers[name] = field === 'headers' ? value : [value];
  }
}

/** The sample with its request replaced by `POST /api/licence` carrying `body`; nothing else changed. */
function asVerification(sample: Sample, body: string): Record<string, unknown> {
  const event = readExternalJson<Record<string, unknown>>(`aws-lambda-events/${sample.file}`);
  const context = event.requestContext;
  if (!isRecord(context)) throw new Error(`${sample.file}: no requestContext`);
  if (sample.integration === 'http') {
    event.rawPath = '/api/licence';
    if (!isRecord(context.http)) throw new Error(`${sample.file}: no requestContext.http`);
    context.http.method = 'POST';
    context.http.path = '/api/licence';
  } else {
    event.httpMethod = 'POST';
    event.path = '/api/licence';
    if (sample.integration === 'rest') {
      context.httpMethod = 'POST';
      context.path = '/api/licence';
    }
  }
  setHeader(event, 'content-type', 'application/json');
  // Some samples carry curl's User-Agent, which docs/protocol.md#user-agent-filter filters (403): a
  // product sends its own.
  setHeader(event, 'user-agent', PRODUCT_UA);
  event.body = body;
  event.isBase64Encoded = false;
  return event;
}

describe.skipIf(!postgres.available)('AWS sample events answered with a signed verdict', () => {
  let harness: LambdaHarness;
  const issued: string[] = [];

  beforeAll(async () => {
    harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
    await harness.admin('POST', '/admin/products', { id: 'mon-theme', author: 'atelier', name: 'Mon theme' });
  });

  afterAll(async () => {
    await harness.close();
  });

  for (const [index, sample] of SAMPLES.entries()) {
    it(`${sample.file}: ${sample.integration} result with ${sample.resultHeaders}`, async () => {
      const { cle } = await harness.admin('POST', '/admin/keys', { produit: 'mon-theme', kind: 'buyer' });
      if (typeof cle !== 'string') throw new Error('no cle issued');
      issued.push(cle);
      const nonce = randomBytes(16).toString('base64url');
      const request = { cle, url: `https://www.sample-${index}.fr/boutique`, produit: 'mon-theme', nonce };
      const raw = await harness.handler(asVerification(sample, JSON.stringify(request)));
      const result = readResult(raw);

      expect(result.statusCode).toBe(200);
      expect(result.raw.isBase64Encoded).toBe(false);
      // The integration's own header field, and only that one (API Gateway merges both; an ALB reads one).
      const other = sample.resultHeaders === 'headers' ? 'multiValueHeaders' : 'headers';
      expect(result.raw).toHaveProperty(sample.resultHeaders);
      expect(result.raw).not.toHaveProperty(other);
      if (sample.resultHeaders === 'multiValueHeaders') {
        expect(result.raw.multiValueHeaders).toMatchObject({
          'Content-Type': ['application/json'],
          'Cache-Control': ['no-store'],
        });
      } else {
        expect(result.raw.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      }
      if (sample.integration === 'alb') expect(result.raw.statusDescription).toBe('200 OK');
      else expect(result.raw).not.toHaveProperty('statusDescription');
      expect(result.headers['access-control-allow-origin']).toBe('*');

      // A signed verdict for this host, product and call (docs/protocol.md#product-and-nonce), and
      // a positive one: the key binds this site.
      expect(
        verifyEnvelope(result.json, [harness.publicKey], { hote: `sample-${index}.fr`, produit: 'mon-theme', nonce }),
      ).toBe(true);
      expect(result.json).toMatchObject({
        donnees: { ok: true, motif: '', domaine: `sample-${index}.fr`, hote: `sample-${index}.fr` },
      });
    });
  }

  it('logged one request line per event, and no key nor the admin token (docs/protocol.md#privacy)', () => {
    const requests = harness.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request' && entry.route === '/api/licence');
    expect(requests).toHaveLength(SAMPLES.length);
    expect(requests.every((entry) => entry.status === 200 && entry.method === 'POST')).toBe(true);
    expect(linesHolding(harness.lines, [...issued.flatMap(keySpellings), harness.adminToken])).toEqual([]);
  });
});
