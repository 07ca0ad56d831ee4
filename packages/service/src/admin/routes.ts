import { type AdminError, type AdminErrorClass, isAdminError } from './errors.js';
import { type AdminAuthFailures, authenticateAdmin } from './auth.js';
import type { AdminOperations } from './operation.js';
import { ADMIN_OPERATIONS } from './operations.js';
import { type AdminRoute, adminRoutes } from './route-table.js';
import { adminContext, runOperation } from './key-admin.js';
import { emptyResponse, jsonResponse } from '../http/index.js';
import { publicBase as buyerLinkBase } from '../http/index.js';
import { HttpError, type ProblemKind } from '../http/index.js';
import {
  checkBodySize,
  checkContentEncoding,
  checkJsonContentType,
  MAX_ADMIN_BODY_BYTES,
  parseJsonObject,
} from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The admin HTTP API (docs/protocol.md#administration), a thin layer over `KeyAdmin`, made for the
 * token's principal (docs/protocol.md#authors). Only mounted when an admin token is set (else every
 * `/admin` path is a 404 like any unknown path). Order of checks: the client's lockout after too
 * many failed authentications 429, then the token 401 (auth.ts; first, on every `/admin`
 * path, so that routes are not probed without it), unknown route 404, method 405 with `Allow`,
 * body size 413 (64 KiB), content coding and content type 415 (only when a body is sent), JSON 400;
 * then the query and the body's fields (fields.ts) and the operation, whose `AdminError`s
 * become problems here, and only here. No User-Agent filter and no rate limit of the public
 * endpoint: the token guards it (docs/protocol.md#request). The routes: the operations' table
 * (operations.ts), matched as route-table.ts lays it out.
 */

/** Segments of `path` after `/admin`, raw (still percent-encoded). */
function segmentsOf(path: string): string[] | null {
  if (path !== '/admin' && !path.startsWith('/admin/')) return null;
  return path.slice('/admin'.length).split('/').slice(1);
}

/** The parameters when `segments` fit `pattern`; a parameter is never empty. */
function matchRoute(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return null;
      params[part.slice(1)] = segment;
    } else if (part !== segment) {
      return null;
    }
  }
  return params;
}

/**
 * Path parameters are percent-decoded (docs/protocol.md#administration: `:cle` is URL-decoded, then
 * normalised).
 */
function decodeParams(params: Readonly<Record<string, string>>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      // The URIError says no more than this, and quoting the segment could show a key.
      throw new HttpError('invalid-request', `${name}: not a valid percent-encoded path segment`);
    }
  }
  return decoded;
}

/** The problem each class of `AdminError` is answered with (docs/protocol.md#errors). */
const PROBLEM_OF: Readonly<Record<AdminErrorClass, ProblemKind>> = {
  invalid: 'invalid-request',
  // docs/protocol.md#authors: an author token asking for the operator's or another author's.
  forbidden: 'forbidden',
  'not-found': 'not-found',
  conflict: 'conflict',
  // A store fault: a 503, its cause kept for the error log line.
  unavailable: 'service-unavailable',
};

/** An `AdminError` as the HTTP error it answers: the class's problem, the message as `detail`. */
export function toHttpError(error: AdminError): HttpError {
  return new HttpError(
    PROBLEM_OF[error.errorClass],
    error.message,
    error.cause === undefined ? {} : { cause: error.cause },
  );
}

/** True when `path` belongs to the admin API. */
export function isAdminPath(path: string): boolean {
  return segmentsOf(path) !== null;
}

/** The route's log name for an admin path, or the bare prefix; never the path itself. */
export function adminRouteName(request: ServiceRequest, operations: AdminOperations = ADMIN_OPERATIONS): string {
  const segments = segmentsOf(request.path) ?? [];
  const route = adminRoutes(operations).find(
    (candidate) => candidate.method === request.method && matchRoute(candidate.pattern, segments) !== null,
  );
  return route?.name ?? '/admin';
}

/** Answers one admin request (the caller has checked that the API is on). */
export async function handleAdmin(
  context: ServiceContext,
  failures: AdminAuthFailures,
  request: ServiceRequest,
  operations: AdminOperations = ADMIN_OPERATIONS,
): Promise<ServiceResponse> {
  const principal = await authenticateAdmin(context, failures, request, adminRouteName(request, operations));
  const segments = segmentsOf(request.path) ?? [];
  const matching = adminRoutes(operations)
    .map((route) => ({ route, params: matchRoute(route.pattern, segments) }))
    .filter((entry): entry is { route: AdminRoute; params: Record<string, string> } => entry.params !== null);
  if (matching.length === 0) throw new HttpError('not-found', 'no such admin route');
  const found = matching.find((entry) => entry.route.method === request.method);
  if (found === undefined) {
    const allow = [...new Set(matching.map((entry) => entry.route.method))].sort().join(', ');
    throw new HttpError('method-not-allowed', `use ${allow} on this path`, { headers: { Allow: allow } });
  }
  const params = decodeParams(found.params);

  let body: unknown;
  if (found.route.method === 'POST' || found.route.method === 'PATCH') {
    const bytes = checkBodySize(request.body, MAX_ADMIN_BODY_BYTES);
    // docs/protocol.md#administration: a missing body is fine wherever no field is required,
    // whatever its type says.
    if (bytes.length > 0) {
      checkContentEncoding(request.headers['content-encoding']);
      checkJsonContentType(request.headers['content-type']);
      body = parseJsonObject(bytes, true);
    }
  }
  try {
    const publicBase = () => buyerLinkBase(context.publicUrl, request, context.trust);
    const { operation } = found.route;
    const args = operation.input({ params, body, query: request.query, publicBase });
    const output = await runOperation(operation, adminContext(context, principal), args);
    return operation.status === 204 ? emptyResponse(204) : jsonResponse(operation.status, output);
  } catch (error) {
    throw isAdminError(error) ? toHttpError(error) : error;
  }
}
