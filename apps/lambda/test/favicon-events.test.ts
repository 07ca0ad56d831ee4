import { readExternalJson } from '@licence/vectors';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApiEvent, readResult } from './events.js';
import type { ReadResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';

/**
 * `/favicon.ico` through the real handler on PostgreSQL (docs/protocol.md#favicon): the icon in the
 * result shape of each integration, admin API on or off; and the buyer page's relative icon link,
 * followed from the page's address on a named stage as a browser does, reaches it through the
 * stage. `/` stays the 404 problem of an unknown path.
 */

const postgres = await throwawayPostgres('lambda favicon');

/** docs/protocol.md#favicon: what every answer of the icon carries. */
function expectIcon(result: ReadResult, body = true): void {
  expect(result.statusCode).toBe(200);
  expect(result.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
  expect(result.headers['cache-control']).toBe('public, max-age=86400');
  expect(result.headers['x-content-type-options']).toBe('nosniff');
  expect(result.raw.isBase64Encoded).toBe(false);
  if (body) expect(result.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s);
  else expect(result.body).toBe('');
}

describe.skipIf(!postgres.available)('the icon through the handler', () => {
  let harness: LambdaHarness;

  beforeAll(async () => {
    harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
  });

  afterAll(async () => {
    await harness.close();
  });

  it('HTTP API: GET and HEAD /favicon.ico are the SVG icon; POST a 405 naming GET and HEAD', async () => {
    expectIcon(readResult(await harness.handler(httpApiEvent({ method: 'GET', path: '/favicon.ico' }))));
    expectIcon(readResult(await harness.handler(httpApiEvent({ method: 'HEAD', path: '/favicon.ico' }))), false);
    const post = readResult(await harness.handler(httpApiEvent({ method: 'POST', path: '/favicon.ico' })));
    expect([post.statusCode, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('REST and ALB: the icon in their own result shapes', async () => {
    const rest = readExternalJson<Record<string, unknown>>('aws-lambda-events/apigw-request.json');
    const context = rest.requestContext as Record<string, unknown>;
    const restEvent = {
      ...rest,
      httpMethod: 'GET',
      path: '/favicon.ico',
      headers: {},
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: null,
      requestContext: { ...context, httpMethod: 'GET', path: '/testStage/favicon.ico' },
    };
    const restResult = readResult(await harness.handler(restEvent));
    expectIcon(restResult);
    expect(restResult.raw).toHaveProperty('multiValueHeaders');
    const alb = {
      ...readExternalJson<Record<string, unknown>>('aws-lambda-events/alb-lambda-target-request-headers-only.json'),
      path: '/favicon.ico',
      queryStringParameters: {},
      headers: { 'x-forwarded-for': '203.0.113.7' },
    };
    const albResult = readResult(await harness.handler(alb));
    expectIcon(albResult);
    expect(albResult.raw).toMatchObject({ statusDescription: '200 OK' });
  });

  it('a buyer page on a named stage links the icon where the stage leads to it', async () => {
    // An invalid link's page: the same document head as every buyer page, without making a key.
    const page = readResult(
      await harness.handler(httpApiEvent({ method: 'GET', path: '/prod/buyer/nope', stage: 'prod' })),
    );
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-security-policy']).toMatch(/(^|; )img-src 'self'(;|$)/);
    const href = /<link rel="icon" href="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const icon = new URL(href, 'https://licences.exemple.fr/prod/buyer/nope');
    expect(icon.pathname).toBe('/prod/favicon.ico');
    expectIcon(readResult(await harness.handler(httpApiEvent({ method: 'GET', path: icon.pathname, stage: 'prod' }))));
  });

  it('`/` is the 404 problem of an unknown path', async () => {
    const root = readResult(await harness.handler(httpApiEvent({ method: 'GET', path: '/' })));
    expect([root.statusCode, root.headers['content-type']]).toEqual([404, 'application/problem+json']);
  });

  it('without LICENCE_ADMIN_TOKEN the icon is served still, as the buyer pages are', async () => {
    const off = lambdaHarness({
      databaseUrl: await postgres.cluster().createDatabase(),
      env: { LICENCE_ADMIN_TOKEN: '' },
    });
    try {
      expectIcon(readResult(await off.handler(httpApiEvent({ method: 'GET', path: '/favicon.ico' }))));
    } finally {
      await off.close();
    }
  });
});
