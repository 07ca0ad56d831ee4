import { isRecord } from '@licence/http-vector-runner';
import { readExternalJson } from '@licence/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApiEvent, readResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * The query string reaches the service from every event shape (to-service-request.ts
 * `requestQuery`), through the real handler on PostgreSQL: `GET /admin/products/:id/activity?days=N`
 * (docs/protocol.md#activity) answers N days, and `days=0` is the route's 400 problem, whether the
 * integration hands the query over raw (HTTP API, Function URL), decoded (REST) or as sent (ALB).
 */

const postgres = await throwawayPostgres('lambda query strings');

const ACTIVITY = '/admin/products/mon-theme/activity';

type Query = Readonly<Record<string, readonly string[]>>;

const sample = (file: string): Record<string, unknown> =>
  readExternalJson<Record<string, unknown>>(`aws-lambda-events/${file}`);

/** The AWS samples with their request replaced by `GET <ACTIVITY>?<query>` and the admin token. */
const SHAPES: readonly { readonly name: string; readonly event: (token: string, query: Query) => unknown }[] = [
  {
    name: 'HTTP API v2 (rawQueryString)',
    event: (token, query) => ({
      ...httpApiEvent({ method: 'GET', path: ACTIVITY, headers: { authorization: `Bearer ${token}` } }),
      rawQueryString: new URLSearchParams(pairs(query)).toString(),
    }),
  },
  {
    name: 'Function URL (rawQueryString)',
    event: (token, query) => {
      const event = sample('lambda-urls-request.json');
      const context = isRecord(event.requestContext) ? event.requestContext : {};
      const http = isRecord(context.http) ? context.http : {};
      return {
        ...event,
        rawPath: ACTIVITY,
        rawQueryString: new URLSearchParams(pairs(query)).toString(),
        headers: { authorization: `Bearer ${token}` },
        body: undefined,
        isBase64Encoded: false,
        requestContext: { ...context, http: { ...http, method: 'GET', path: ACTIVITY } },
      };
    },
  },
  {
    name: 'REST v1 (decoded multiValueQueryStringParameters)',
    event: (token, query) => {
      const event = sample('apigw-request.json');
      const context = isRecord(event.requestContext) ? event.requestContext : {};
      return {
        ...event,
        httpMethod: 'GET',
        path: ACTIVITY,
        headers: { Authorization: `Bearer ${token}` },
        multiValueHeaders: { Authorization: [`Bearer ${token}`] },
        // API Gateway sends null, not {}, for no query.
        queryStringParameters: Object.keys(query).length === 0 ? null : Object.fromEntries(pairs(query)),
        multiValueQueryStringParameters: Object.keys(query).length === 0 ? null : query,
        body: null,
        requestContext: { ...context, httpMethod: 'GET', path: `/testStage${ACTIVITY}` },
      };
    },
  },
  {
    name: 'ALB (queryStringParameters as sent)',
    event: (token, query) => ({
      ...sample('alb-lambda-target-request-headers-only.json'),
      path: ACTIVITY,
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.7' },
      queryStringParameters: Object.fromEntries(pairs(query).map(([name, value]) => [name, encodeURIComponent(value)])),
    }),
  },
  {
    name: 'ALB with multi-value headers (multiValueQueryStringParameters as sent)',
    event: (token, query) => ({
      ...sample('alb-lambda-target-request-multivalue-headers.json'),
      path: ACTIVITY,
      multiValueHeaders: { authorization: [`Bearer ${token}`], 'x-forwarded-for': ['203.0.113.7'] },
      multiValueQueryStringParameters: Object.fromEntries(
        Object.entries(query).map(([name, values]) => [name, values.map(encodeURIComponent)]),
      ),
    }),
  },
];

function pairs(query: Query): [string, string][] {
  return Object.entries(query).flatMap(([name, values]) => values.map((value): [string, string] => [name, value]));
}

describe.skipIf(!postgres.available)('the query string of every event shape reaches the activity route', () => {
  let harness: LambdaHarness;

  beforeAll(async () => {
    harness = lambdaHarness({ databaseUrl: await postgres.cluster().createDatabase() });
    await harness.admin('POST', '/admin/products', { id: 'mon-theme', author: 'atelier', name: 'Mon theme' });
  });

  afterAll(async () => {
    await harness.close();
  });

  for (const shape of SHAPES) {
    it(`${shape.name}: ?days=7 answers seven days, ?days=0 the route's 400 problem`, async () => {
      const week = readResult(await harness.handler(shape.event(harness.adminToken, { days: ['7'] })));
      expect(week.statusCode).toBe(200);
      expect(week.json).toMatchObject({ product: 'mon-theme' });
      expect(isRecord(week.json) && Array.isArray(week.json.days) ? week.json.days.length : -1).toBe(7);
      // Without a query: the default, 30 days.
      const month = readResult(await harness.handler(shape.event(harness.adminToken, {})));
      expect(isRecord(month.json) && Array.isArray(month.json.days) ? month.json.days.length : -1).toBe(30);

      const zero = readResult(await harness.handler(shape.event(harness.adminToken, { days: ['0'] })));
      expect(zero.statusCode).toBe(400);
      expect(zero.headers['content-type']).toBe('application/problem+json');
      expect(zero.json).toMatchObject({ status: 400 });
    });
  }

  it('logged the route, never the path or the query (docs/protocol.md#privacy)', () => {
    const requests = harness.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request' && entry.status !== 201);
    expect(requests).toHaveLength(SHAPES.length * 3);
    expect(harness.lines.filter((line) => line.includes('mon-theme/activity') || line.includes('days='))).toEqual([]);
  });
});
