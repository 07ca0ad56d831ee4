import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isRecord } from '@licence/http-vector-runner';

/** Building and reading events and results in tests. */

/** A product User-Agent the filter of docs/protocol.md#user-agent-filter lets through. */
export const PRODUCT_UA = 'LambdaTest/1.0 (+https://exemple.fr)';

/** A minimal HTTP API (payload 2.0) event, as an HTTP API on its `$default` stage sends it. */
export function httpApiEvent(request: {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly base64?: boolean;
  readonly sourceIp?: string;
  readonly stage?: string;
}): APIGatewayProxyEventV2 {
  const stage = request.stage ?? '$default';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: request.path,
    rawQueryString: '',
    headers: { ...request.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'test',
      domainName: 'test.execute-api.eu-west-3.amazonaws.com',
      domainPrefix: 'test',
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '203.0.113.9',
        userAgent: request.headers?.['user-agent'] ?? '',
      },
      requestId: 'test-request',
      routeKey: '$default',
      stage,
      time: '22/Nov/2026:10:14:00 +0000',
      timeEpoch: 1795342440000,
    },
    ...(request.body === undefined
      ? {}
      : { body: request.base64 === true ? Buffer.from(request.body).toString('base64') : request.body }),
    isBase64Encoded: request.base64 === true,
  };
}

/** The fields a test reads off any HTTP result shape. */
export interface ReadResult {
  readonly statusCode: number;
  readonly body: string;
  readonly json: unknown;
  /** Lower-case names, from `headers` or `multiValueHeaders` (values joined with ", "). */
  readonly headers: Readonly<Record<string, string>>;
  readonly raw: Record<string, unknown>;
}

export function readResult(result: unknown): ReadResult {
  if (!isRecord(result) || typeof result.statusCode !== 'number' || typeof result.body !== 'string') {
    throw new Error(`not an HTTP result: ${JSON.stringify(result)}`);
  }
  const headers: Record<string, string> = {};
  if (isRecord(result.headers))
    for (const [name, value] of Object.entries(result.headers)) headers[name.toLowerCase()] = String(value);
  if (isRecord(result.multiValueHeaders)) {
    for (const [name, values] of Object.entries(result.multiValueHeaders)) {
      if (Array.isArray(values)) headers[name.toLowerCase()] = values.map(String).join(', ');
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(result.body) as unknown;
  } catch {
    // An empty or non-JSON body: the test reads `body`.
    json = undefined;
  }
  return { statusCode: result.statusCode, body: result.body, json, headers, raw: result };
}

/** An admin call through the handler that must succeed: its JSON object. */
export async function adminEvent(
  handler: (event: APIGatewayProxyEventV2) => Promise<unknown>,
  adminToken: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const result = readResult(
    await handler(
      httpApiEvent({
        method,
        path,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    ),
  );
  if (result.statusCode >= 300 || !isRecord(result.json))
    throw new Error(`${method} ${path}: ${result.statusCode} ${result.body}`);
  return result.json;
}

/** An EventBridge schedule's event, as a `Schedule` rule of template.yaml sends it. */
export function scheduledEvent(rule: string): Record<string, unknown> {
  return {
    version: '0',
    id: 'cdc73f9d-aea9-11e3-9d5a-835b769c0d9c',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: '2026-11-22T10:14:00Z',
    region: 'eu-west-3',
    resources: [`arn:aws:events:eu-west-3:123456789012:rule/${rule}`],
    detail: {},
  };
}

/** The part of Lambda's context the handlers read: `remainingMs` left from now, counting down in real time. */
export function lambdaContext(remainingMs: number, awsRequestId = 'test-invocation') {
  const deadline = Date.now() + remainingMs;
  return { awsRequestId, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}
