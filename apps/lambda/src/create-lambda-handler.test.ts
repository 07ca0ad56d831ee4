import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { decodeBase64, verifyEnvelope } from '@licence/core';
import { createMemoryRateLimiter, createNodeSigner, createService } from '@licence/service';
import { createMemoryStore } from '@licence/store-memory';
import type { Service } from '@licence/service';
import { loadSignatureVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { createLambdaHandler } from './create-lambda-handler.js';
import { createJsonLogger } from './json-logger.js';

/**
 * The handler with a service handed in (`{ service }`): the three steps and their log line, on the
 * service's own memory store and the TEST ONLY key. The environment path runs on PostgreSQL in
 * test/ (config-errors, container-lifecycle, http-vectors-local-runner).
 */

const keys = loadSignatureVectors().keys.primary;
const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
const ADMIN_TOKEN = 'an-admin-token-long-enough-0123456789';

function setUp(service?: Service) {
  const lines: string[] = [];
  const logger = createJsonLogger({ level: 'debug', write: (line) => lines.push(line) });
  const real = createService({
    store: createMemoryStore(),
    rateLimiter: createMemoryRateLimiter(),
    clock: { now: () => 1795342440000 },
    signer: createNodeSigner(decodeBase64(keys.seed, 'seed', 32)),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    adminToken: ADMIN_TOKEN,
  });
  return { lines, handler: createLambdaHandler({ service: service ?? real, logger }) };
}

const v2 = (
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Product/1.0' },
) => ({
  version: '2.0',
  rawPath: path,
  headers,
  requestContext: { http: { method: 'POST', path, sourceIp: '203.0.113.5' }, stage: '$default' },
  body,
  isBase64Encoded: false,
});

describe('createLambdaHandler({ service })', () => {
  it('answers an event with the signed verdict and logs one line: method, route, status, ms, requestId', async () => {
    const { handler, lines } = setUp();
    const result = await handler(v2('/api/licence', JSON.stringify({ cle: KEY, url: 'https://exemple.fr' })), {
      awsRequestId: 'req-1',
    });
    if (!('statusCode' in result) || typeof result.body !== 'string') throw new Error('not an HTTP result');
    expect(result.statusCode).toBe(200);
    expect(verifyEnvelope(JSON.parse(result.body), [keys.publicKey], { hote: 'exemple.fr' })).toBe(true);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.msg === 'request')).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        method: 'POST',
        route: '/api/licence',
        status: 200,
        ms: expect.any(Number),
        requestId: 'req-1',
        msg: 'request',
      },
    ]);
    expect(lines.filter((line) => line.includes(KEY) || line.includes(KEY.replaceAll('-', '')))).toEqual([]);
  });

  it("logs an admin path by the service's route label, never the key it holds", async () => {
    const { handler, lines } = setUp();
    const result = await handler({
      ...v2(`/admin/keys/${KEY}`, ''),
      requestContext: { http: { method: 'GET', path: '/x', sourceIp: '203.0.113.5' } },
    });
    expect('statusCode' in result && result.statusCode).toBe(401);
    // The same label the Koa server logs (routeLabel of @licence/service): the route, `:cle` for the key.
    expect(lines.some((line) => line.includes('"route":"/admin/keys/:cle"'))).toBe(true);
    expect(lines.filter((line) => line.includes('ABCDE'))).toEqual([]);
  });

  it('a fault that escapes the service is a 500 problem and an error line, never a signed refusal', async () => {
    const broken: Service = {
      handle: () => Promise.reject(new Error('bug of the day')),
      purge: () => Promise.resolve(0),
    };
    const { handler, lines } = setUp(broken);
    const result = await handler(v2('/api/licence', '{}'));
    if (!('statusCode' in result) || typeof result.body !== 'string') throw new Error('not an HTTP result');
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toMatchObject({ type: 'https://licence.dev/problems/internal-error', status: 500 });
    expect(result.body).not.toContain('signature');
    const errors = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.level === 50);
    expect(errors).toMatchObject([
      { msg: 'request failed', route: '/api/licence', err: { name: 'Error', message: 'bug of the day' } },
    ]);
  });

  it('answers a gzip body (API Gateway passes Content-Encoding through) with 415 problem+json', async () => {
    const { handler } = setUp();
    const gzipped = gzipSync(JSON.stringify({ cle: KEY, url: 'https://exemple.fr' }));
    const result = await handler({
      ...v2('/api/licence', gzipped.toString('base64'), {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'user-agent': 'Product/1.0',
      }),
      isBase64Encoded: true,
    });
    if (!('statusCode' in result) || typeof result.body !== 'string') throw new Error('not an HTTP result');
    expect(result.statusCode).toBe(415);
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'Accept-Encoding': 'identity' });
    expect(JSON.parse(result.body)).toMatchObject({ type: 'https://licence.dev/problems/unsupported-media-type' });
  });

  it('limits failed admin authentications per sourceIp: the eleventh request is a 429, the right token included', async () => {
    const { handler } = setUp();
    const purgeFrom = (sourceIp: string, token: string) =>
      handler({
        ...v2('/admin/purge', '', { authorization: `Bearer ${token}` }),
        requestContext: { http: { method: 'POST', path: '/admin/purge', sourceIp }, stage: '$default' },
      });
    const statusOf = async (sourceIp: string, token: string) => {
      const result = await purgeFrom(sourceIp, token);
      return 'statusCode' in result ? result.statusCode : 0;
    };
    for (let n = 0; n < 10; n += 1) expect(await statusOf('203.0.113.9', `wrong-${n}`)).toBe(401);
    expect(await statusOf('203.0.113.9', ADMIN_TOKEN)).toBe(429);
    expect(await statusOf('203.0.113.10', ADMIN_TOKEN)).toBe(200);
  });

  it('runs the purge on the daily schedule, and close() is harmless for a service it does not own', async () => {
    const { handler, lines } = setUp();
    expect(
      await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }, { awsRequestId: 'cron' }),
    ).toEqual({ erased: 0 });
    expect(lines.some((line) => line.includes('"msg":"purge"'))).toBe(true);
    await handler.close();
    const again = await handler(v2('/healthz', ''));
    expect('statusCode' in again && again.statusCode).toBe(405);
  });
});
