import { STATUS_CODES } from 'node:http';
import type { ServiceResponse } from '@licence/service';
import type { ALBResult, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ClassifiedEvent } from './lambda-event.js';

/** What the handler returns for an HTTP event, in the shape of the integration that sent it. */
export type LambdaHttpResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult;

/**
 * Step 3 of the adapter (CONTRIBUTING.md#architecture; hono's `createResult`): the service's
 * `{status, headers, body}` as the result its integration expects. The service's body is always
 * text (JSON, problem+json or empty), so `isBase64Encoded` is false, said explicitly: an HTTP API
 * would otherwise guess.
 *
 * - REST API: `multiValueHeaders` when the event had them (API Gateway merges `headers` and
 *   `multiValueHeaders`, so exactly one of them is sent), else `headers`.
 * - ALB: the same choice, and it is not a choice there: a target group with multi-value headers
 *   on reads only `multiValueHeaders`, one without reads only `headers`. ALB also wants
 *   `statusDescription` ("200 OK").
 * - HTTP API and Function URL (payload 2.0): `headers`, and `Set-Cookie` as `cookies` (payload
 *   2.0 has no other way to send two of them). The service sets no cookie today; the rule is
 *   here so that a later one is not silently dropped.
 */
export function toLambdaResult(classified: ClassifiedEvent, response: ServiceResponse): LambdaHttpResult {
  const { status, body } = response;
  if (classified.kind === 'http') {
    const headers: Record<string, string> = {};
    const cookies: string[] = [];
    for (const [name, value] of Object.entries(response.headers)) {
      if (name.toLowerCase() === 'set-cookie') cookies.push(value);
      else headers[name] = value;
    }
    return { statusCode: status, headers, ...(cookies.length === 0 ? {} : { cookies }), body, isBase64Encoded: false };
  }
  const multiValue = hasMultiValueHeaders(classified);
  const headerFields = multiValue
    ? { multiValueHeaders: toMultiValue(response.headers) }
    : { headers: { ...response.headers } };
  if (classified.kind === 'alb') {
    return {
      statusCode: status,
      statusDescription: statusDescription(status),
      ...headerFields,
      body,
      isBase64Encoded: false,
    };
  }
  return { statusCode: status, ...headerFields, body, isBase64Encoded: false };
}

/** True when the event carried `multiValueHeaders` (REST always; ALB when its target group has them on). */
export function hasMultiValueHeaders(classified: ClassifiedEvent): boolean {
  if (classified.kind === 'http') return false;
  const value: unknown = classified.event.multiValueHeaders;
  return typeof value === 'object' && value !== null;
}

function toMultiValue(headers: Readonly<Record<string, string>>): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) result[name] = [value];
  return result;
}

/** ALB's status line text: `200 OK`, `429 Too Many Requests` (RFC 9110 15 reason phrases). */
export function statusDescription(status: number): string {
  const reason = STATUS_CODES[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}
