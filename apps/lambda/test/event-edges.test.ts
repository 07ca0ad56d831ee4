import { randomBytes } from 'node:crypto';
import { verifyEnvelope } from '@licence/core';
import { isRecord } from '@licence/http-vector-runner';
import { readExternalJson } from '@licence/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApiEvent, PRODUCT_UA, readResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * The edges of the Lambda events through the real handler on PostgreSQL: a base64 body, a stage
 * prefix in the path (REST on a custom domain, HTTP API on a named stage), multi-value headers, and
 * the client address each integration gives the rate limit (docs/protocol.md#client-address).
 */

const postgres = await throwawayPostgres('lambda event edges');

describe.skipIf(!postgres.available)('event edges through the handler', () => {
  let harness: LambdaHarness;
  let cle = '';

  beforeAll(async () => {
    harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
    await harness.admin('POST', '/admin/products', { id: 'mon-theme', author: 'atelier', name: 'Mon theme' });
    const issued = await harness.admin('POST', '/admin/keys', { produit: 'mon-theme', kind: 'buyer', sites: 3 });
    if (typeof issued.cle !== 'string') throw new Error('no cle');
    cle = issued.cle;
  });

  afterAll(async () => {
    await harness.close();
  });

  const verification = (url: string) => {
    const nonce = randomBytes(16).toString('base64url');
    return { body: JSON.stringify({ cle, url, nonce }), nonce };
  };

  /** A REST (payload 1.0) event built on the AWS sample, with the given path and headers. */
  const restEvent = (
    path: string,
    contextPath: string,
    multiValueHeaders: Record<string, string[]>,
    body: string,
    sourceIp = '198.51.100.7',
  ) => {
    const event = readExternalJson<Record<string, unknown>>('aws-lambda-events/apigw-request.json');
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(multiValueHeaders)) headers[name] = values.at(-1) ?? '';
    const context = isRecord(event.requestContext) ? event.requestContext : {};
    const identity = isRecord(context.identity) ? context.identity : {};
    return {
      ...event,
      httpMethod: 'POST',
      path,
      headers,
      multiValueHeaders,
      body,
      isBase64Encoded: false,
      requestContext: { ...context, path: contextPath, httpMethod: 'POST', identity: { ...identity, sourceIp } },
    };
  };

  it('a base64 body (isBase64Encoded) is decoded before the service reads it', async () => {
    const { body, nonce } = verification('https://base64.exemple.fr');
    const event = httpApiEvent({
      method: 'POST',
      path: '/api/licence',
      headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA },
      body,
      base64: true,
    });
    expect(event.body).not.toContain('{');
    const result = readResult(await harness.handler(event));
    expect(result.statusCode).toBe(200);
    expect(verifyEnvelope(result.json, [harness.publicKey], { hote: 'base64.exemple.fr', nonce })).toBe(true);
  });

  it('HTTP API on a named stage: /prod/api/licence reaches /api/licence; $default keeps the path', async () => {
    const { body, nonce } = verification('https://stage.exemple.fr');
    const headers = { 'content-type': 'application/json', 'user-agent': PRODUCT_UA };
    const staged = readResult(
      await harness.handler(httpApiEvent({ method: 'POST', path: '/prod/api/licence', stage: 'prod', headers, body })),
    );
    expect(staged.statusCode).toBe(200);
    expect(verifyEnvelope(staged.json, [harness.publicKey], { hote: 'stage.exemple.fr', nonce })).toBe(true);
    // The same path on the $default stage is a path of its own: the service's 404.
    const unstaged = readResult(
      await harness.handler(httpApiEvent({ method: 'POST', path: '/prod/api/licence', headers, body })),
    );
    expect(unstaged.statusCode).toBe(404);
    expect(unstaged.headers['content-type']).toBe('application/problem+json');
  });

  it('REST API: a custom domain path /testStage/api/licence loses its stage; the execute-api path has none to lose', async () => {
    const headers = { 'Content-Type': ['application/json'], 'User-Agent': [PRODUCT_UA] };
    const onDomain = verification('https://domain.exemple.fr');
    const domain = readResult(
      await harness.handler(restEvent('/testStage/api/licence', '/testStage/api/licence', headers, onDomain.body)),
    );
    expect(domain.statusCode).toBe(200);
    expect(verifyEnvelope(domain.json, [harness.publicKey], { hote: 'domain.exemple.fr', nonce: onDomain.nonce })).toBe(
      true,
    );
    const onExecuteApi = verification('https://domain.exemple.fr');
    const executeApi = readResult(
      await harness.handler(restEvent('/api/licence', '/testStage/api/licence', headers, onExecuteApi.body)),
    );
    expect(executeApi.statusCode).toBe(200);
    expect(
      verifyEnvelope(executeApi.json, [harness.publicKey], { hote: 'domain.exemple.fr', nonce: onExecuteApi.nonce }),
    ).toBe(true);
  });

  it('multi-value headers: every value is read, whatever its case, and the answer is multi-value too', async () => {
    const { body, nonce } = verification('https://multi.exemple.fr');
    // Content-Type given twice under two spellings: joined it is "application/json, text/plain",
    // which is not JSON (415): proof that both values reached the service, not the last one only.
    const twice = readResult(
      await harness.handler(
        restEvent(
          '/api/licence',
          '/testStage/api/licence',
          { 'Content-Type': ['application/json'], 'content-type': ['text/plain'], 'User-Agent': [PRODUCT_UA] },
          body,
        ),
      ),
    );
    expect(twice.statusCode).toBe(415);
    expect(twice.raw.multiValueHeaders).toMatchObject({ 'Content-Type': ['application/problem+json'] });
    // `headers` keeps only the last value (as API Gateway does): the service reads multiValueHeaders.
    const event = restEvent(
      '/api/licence',
      '/testStage/api/licence',
      { 'Content-Type': ['application/json'], 'User-Agent': [PRODUCT_UA] },
      body,
    );
    const once = readResult(
      await harness.handler({ ...event, headers: { 'Content-Type': 'text/plain', 'User-Agent': 'curl/8.0' } }),
    );
    expect(once.statusCode).toBe(200);
    expect(verifyEnvelope(once.json, [harness.publicKey], { hote: 'multi.exemple.fr', nonce })).toBe(true);
  });

  it('HTTP API: the rate limit counts requestContext.http.sourceIp, not the client-written X-Forwarded-For', async () => {
    harness.clock.advance(120);
    const send = (sourceIp: string, forwardedFor: string) =>
      harness.handler(
        httpApiEvent({
          method: 'POST',
          path: '/api/licence',
          sourceIp,
          headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA, 'x-forwarded-for': forwardedFor },
          body: verification('https://rate.exemple.fr').body,
        }),
      );
    for (let i = 0; i < 30; i += 1)
      expect(readResult(await send('192.0.2.10', `10.0.0.${i}, 192.0.2.10`)).statusCode).toBe(200);
    const refused = readResult(await send('192.0.2.10', '10.0.0.99, 192.0.2.10'));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is another client.
    expect(readResult(await send('192.0.2.11', '192.0.2.11')).statusCode).toBe(200);
  });

  it('ALB: the client is the LAST X-Forwarded-For hop (the one the ALB appended), not a client-written first entry', async () => {
    harness.clock.advance(120);
    const alb = readExternalJson<Record<string, unknown>>(
      'aws-lambda-events/alb-lambda-target-request-headers-only.json',
    );
    const send = (forwardedFor: string) =>
      harness.handler({
        ...alb,
        httpMethod: 'POST',
        path: '/api/licence',
        headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA, 'x-forwarded-for': forwardedFor },
        body: verification('https://alb.exemple.fr').body,
      });
    for (let i = 0; i < 30; i += 1) expect(readResult(await send(`10.1.0.${i}, 203.0.113.50`)).statusCode).toBe(200);
    expect(readResult(await send('10.1.0.200, 203.0.113.50')).statusCode).toBe(429);
    expect(readResult(await send('203.0.113.51')).statusCode).toBe(200);
  });

  it('TRUST_PROXY=1 behind AWS: the entry before the one AWS appended is the client', async () => {
    const trusting = lambdaHarness({
      databaseUrl: await postgres.cluster().createDatabase(),
      env: { TRUST_PROXY: '1' },
    });
    try {
      await trusting.admin('POST', '/admin/products', { id: 'p', author: 'a', name: 'P' });
      const issued = await trusting.admin('POST', '/admin/keys', { produit: 'p', kind: 'buyer' });
      const send = (client: string) =>
        trusting.handler(
          httpApiEvent({
            method: 'POST',
            path: '/api/licence',
            // A CloudFront edge called API Gateway: AWS appended the edge's address after the client's.
            sourceIp: '130.176.0.1',
            headers: {
              'content-type': 'application/json',
              'user-agent': PRODUCT_UA,
              'x-forwarded-for': `${client}, 130.176.0.1`,
            },
            body: JSON.stringify({ cle: issued.cle, url: 'https://proxy.exemple.fr' }),
          }),
        );
      for (let i = 0; i < 30; i += 1) expect(readResult(await send('198.51.100.1')).statusCode).toBe(200);
      expect(readResult(await send('198.51.100.1')).statusCode).toBe(429);
      // Same edge, another client: counted apart.
      expect(readResult(await send('198.51.100.2')).statusCode).toBe(200);
    } finally {
      await trusting.close();
    }
  });

  it('the daily schedule runs the purge and answers the count (docs/protocol.md#privacy)', async () => {
    // An EventBridge schedule's event, as the `Purge` rule of template.yaml sends it.
    const scheduled = {
      version: '0',
      id: 'cdc73f9d-aea9-11e3-9d5a-835b769c0d9c',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '123456789012',
      time: '2026-11-22T10:14:00Z',
      region: 'eu-west-3',
      resources: ['arn:aws:events:eu-west-3:123456789012:rule/licence-purge'],
      detail: {},
    };
    // Thirteen months later, every address logged above is past retention.
    harness.clock.advance(400 * 86400);
    const result = await harness.handler(scheduled);
    expect(result).toEqual({ erased: expect.any(Number) });
    // At least the 60-odd verdicts of the rate limit tests above, each logged with its address.
    expect('erased' in result ? result.erased : 0).toBeGreaterThan(60);
    expect(await harness.handler(scheduled)).toEqual({ erased: 0 });
  });
});
