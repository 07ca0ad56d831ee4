import type { ServiceResponse } from './service-types.js';
import { type HttpError, problemBody, type ProblemKind } from './problem.js';

/**
 * Building `ServiceResponse`s. Every response carries `Cache-Control: no-store`
 * (docs/protocol.md#request): a verdict is for the caller that asked, and an error must not be
 * replayed by a cache either. And `X-Content-Type-Options: nosniff`: a browser handed a JSON or
 * problem answer (the admin API's, with an author's data in it) never sniffs it into HTML or a
 * script. The console's and the buyer's pages set both in their own header sets.
 */

export type Headers = Readonly<Record<string, string>>;

const BASE_HEADERS: Headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** A JSON answer (`application/json`, RFC 8259: UTF-8, no charset parameter needed). */
export function jsonResponse(status: number, body: unknown, headers: Headers = {}): ServiceResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** An answer without a body (204). */
export function emptyResponse(status: number, headers: Headers = {}): ServiceResponse {
  return { status, headers: { ...BASE_HEADERS, ...headers }, body: '' };
}

/** An RFC 9457 problem answer. */
export function problemResponse(
  kind: ProblemKind,
  detail: string,
  headers: Headers = {},
  status?: number,
): ServiceResponse {
  const body = problemBody(kind, detail, status);
  return {
    status: body.status,
    headers: { ...BASE_HEADERS, 'Content-Type': 'application/problem+json', ...headers },
    body: JSON.stringify(body),
  };
}

/** An `HttpError` as its problem answer, with `extra` headers (CORS on the public endpoint). */
export function errorResponse(error: HttpError, extra: Headers = {}): ServiceResponse {
  return problemResponse(error.kind, error.detail, { ...error.headers, ...extra }, error.status);
}
