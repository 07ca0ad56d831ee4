import { readExternalJson } from '@licence/vectors';
import { isRecord } from '@licence/http-vector-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApiEvent, readResult } from './events.js';
import type { ReadResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * The console (docs/protocol.md#console) served by the function: its page and its assets, with
 * the security headers, in the result shape of each integration, through the real handler on
 * PostgreSQL; and not at all without LICENCE_ADMIN_TOKEN, like the admin API.
 */

const postgres = await throwawayPostgres('lambda console');

const sample = (file: string): Record<string, unknown> =>
  readExternalJson<Record<string, unknown>>(`aws-lambda-events/${file}`);

/** A GET of `path` in the REST (payload 1.0) shape, with multi-value headers as API Gateway sends them. */
function restGet(path: string, headers: Readonly<Record<string, string>>): Record<string, unknown> {
  const event = sample('apigw-request.json');
  const context = isRecord(event.requestContext) ? event.requestContext : {};
  return {
    ...event,
    httpMethod: 'GET',
    path,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    body: null,
    requestContext: { ...context, httpMethod: 'GET', path: `/testStage${path}` },
  };
}

/** A GET of `path` in the ALB shape (single-value headers). */
function albGet(path: string, headers: Readonly<Record<string, string>>): Record<string, unknown> {
  return {
    ...sample('alb-lambda-target-request-headers-only.json'),
    path,
    queryStringParameters: {},
    headers: { ...headers, 'x-forwarded-for': '203.0.113.7' },
  };
}

/** docs/protocol.md#console: what a browser must be told about the page, on every integration. */
function expectSecurityHeaders(result: ReadResult): void {
  expect(result.headers['content-security-policy']).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
  expect(result.headers['x-frame-options']).toBe('DENY');
  expect(result.headers['x-content-type-options']).toBe('nosniff');
}

describe.skipIf(!postgres.available)('the console through the handler', () => {
  let harness: LambdaHarness;

  beforeAll(async () => {
    harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
  });

  afterAll(async () => {
    await harness.close();
  });

  it('HTTP API: GET /console is the page, in French for a French browser, in English otherwise', async () => {
    const french = readResult(
      await harness.handler(
        httpApiEvent({ method: 'GET', path: '/console', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } }),
      ),
    );
    expect(french.statusCode).toBe(200);
    expect(french.headers['content-type']).toMatch(/^text\/html/);
    expect(french.raw.isBase64Encoded).toBe(false);
    expectSecurityHeaders(french);
    expect(french.body).toMatch(/<html[^>]*\slang="fr"/);
    const english = readResult(
      await harness.handler(
        httpApiEvent({ method: 'GET', path: '/console', headers: { 'accept-language': 'en-GB,en;q=0.8' } }),
      ),
    );
    expect(english.body).toMatch(/<html[^>]*\slang="en"/);
  });

  it('HTTP API: GET /console/console.js is JavaScript, under the same headers', async () => {
    const script = readResult(await harness.handler(httpApiEvent({ method: 'GET', path: '/console/console.js' })));
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body.length).toBeGreaterThan(1000);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
  });

  it('REST and ALB: the page in their own result shapes, the headers in the field each one reads', async () => {
    const rest = readResult(await harness.handler(restGet('/console', { 'Accept-Language': 'fr' })));
    expect(rest.statusCode).toBe(200);
    expect(rest.raw).toHaveProperty('multiValueHeaders');
    expect(rest.raw).not.toHaveProperty('headers');
    expectSecurityHeaders(rest);
    expect(rest.body).toMatch(/<html[^>]*\slang="fr"/);
    const alb = readResult(await harness.handler(albGet('/console/console.js', {})));
    expect(alb.statusCode).toBe(200);
    expect(alb.raw).toMatchObject({ statusDescription: '200 OK', isBase64Encoded: false });
    expect(alb.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('an unknown asset is a 404 problem, not the page', async () => {
    const missing = readResult(await harness.handler(httpApiEvent({ method: 'GET', path: '/console/nothing.js' })));
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<html');
  });

  it('without LICENCE_ADMIN_TOKEN there is no console, as there is no admin API', async () => {
    const off = lambdaHarness({
      databaseUrl: await postgres.cluster().createDatabase(),
      env: { LICENCE_ADMIN_TOKEN: '' },
    });
    try {
      const page = readResult(await off.handler(httpApiEvent({ method: 'GET', path: '/console' })));
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain('<html');
    } finally {
      await off.close();
    }
  });
});
