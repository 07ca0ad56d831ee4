import { isRecord } from '@licence/core';
import type { ServiceRequest } from '@licence/service';
import type { ClassifiedEvent } from './lambda-event.js';

/**
 * Step 1 of the adapter (CONTRIBUTING.md#architecture; hono's `createRequest`): an API Gateway,
 * Function URL or ALB event as the service's HTTP-agnostic `{method, path, query, headers, body,
 * ip}`.
 * Pure: every piece is an exported function of the event, tested on its own.
 */
export function toServiceRequest(classified: ClassifiedEvent): ServiceRequest {
  const headers = requestHeaders(classified);
  const { ip, forwardedFor } = clientAddress(classified, headers['x-forwarded-for']);
  if (forwardedFor === undefined) delete headers['x-forwarded-for'];
  else headers['x-forwarded-for'] = forwardedFor;
  return {
    method: requestMethod(classified),
    path: requestPath(classified),
    query: requestQuery(classified),
    headers,
    body: requestBody(classified.event),
    ip,
    scheme: requestScheme(classified, headers),
  };
}

/**
 * The scheme the client used (docs/protocol.md#buyer-links: a link built on the request). API
 * Gateway and Function URLs take HTTPS only; an ALB says in `X-Forwarded-Proto`, which it sets
 * itself to its listener's protocol (AWS: "X-Forwarded-Proto ... the protocol that a client used
 * to connect to your load balancer").
 */
export function requestScheme(classified: ClassifiedEvent, headers: HeaderMap): 'http' | 'https' | undefined {
  if (classified.kind !== 'alb') return 'https';
  const proto = headers['x-forwarded-proto']?.split(',').at(-1)?.trim().toLowerCase();
  return proto === 'http' || proto === 'https' ? proto : undefined;
}

export function requestMethod(classified: ClassifiedEvent): string {
  return classified.kind === 'http' ? classified.event.requestContext.http.method : classified.event.httpMethod;
}

type HeaderMap = Record<string, string | undefined>;

/**
 * Header names in lower case, a repeated header joined with ", " (the service's rule, RFC 9110
 * 5.3). API Gateway REST keeps the client's case (`Content-Type`) and sends each header twice:
 * `headers` (the last value only) and `multiValueHeaders` (all of them); an ALB sends one or the
 * other, as its target group is set. `multiValueHeaders` wins when present, since it loses
 * nothing. An HTTP API or Function URL event already joins repeats with commas, and moves
 * `Cookie` into `cookies`, put back here as one header (RFC 6265 5.4: "; ").
 */
export function requestHeaders(classified: ClassifiedEvent): HeaderMap {
  const result: HeaderMap = {};
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const previous = result[key];
    result[key] = previous === undefined ? value : `${previous}, ${value}`;
  };
  const multiValue = classified.kind === 'http' ? undefined : classified.event.multiValueHeaders;
  if (isRecord(multiValue)) {
    for (const [name, values] of Object.entries(multiValue)) {
      if (!Array.isArray(values)) continue;
      for (const value of values) if (typeof value === 'string') add(name, value);
    }
  } else if (isRecord(classified.event.headers)) {
    for (const [name, value] of Object.entries(classified.event.headers))
      if (typeof value === 'string') add(name, value);
  }
  const cookies: unknown = classified.kind === 'http' ? classified.event.cookies : undefined;
  if (Array.isArray(cookies)) {
    const values = cookies.filter((cookie): cookie is string => typeof cookie === 'string');
    if (values.length > 0) result.cookie = values.join('; ');
  }
  return result;
}

/**
 * The path the service routes on, without the stage (the service's paths are `/api/licence`,
 * `/healthz`, `/admin/...`):
 *
 * - HTTP API (payload 2.0): `rawPath` starts with `/<stage>` on a named stage and not on
 *   `$default`, so a named stage is taken off its front. A Function URL has no stage.
 * - REST API (payload 1.0): `path` has no stage on the execute-api host (`requestContext.path`
 *   has it, so the two differ), but on a custom domain `path` is the whole path
 *   (`requestContext.path` equals it) and may start with a base path mapping named like the
 *   stage (`/prod/api/licence`): that one is taken off. A stage mark is removed only where AWS
 *   put one, so a stage named `api` never eats the service's own `/api`.
 * - ALB: the path as the client sent it.
 */
export function requestPath(classified: ClassifiedEvent): string {
  if (classified.kind === 'http') {
    const { rawPath, requestContext } = classified.event;
    return withoutStage(rawPath, requestContext.stage);
  }
  if (classified.kind === 'rest') {
    const { path, requestContext } = classified.event;
    if (requestContext.path === path) return withoutStage(path, requestContext.stage);
    return path;
  }
  return classified.event.path;
}

function withoutStage(path: string, stage: unknown): string {
  if (typeof stage !== 'string' || stage === '' || stage === '$default') return path;
  const prefix = `/${stage}`;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

/**
 * The query string as a client sent it after `?` (without it), percent-encoded, as the service
 * reads it (`?days=` of docs/protocol.md#activity); '' for none. Each integration hands it over
 * differently:
 *
 * - HTTP API and Function URL (payload 2.0): `rawQueryString`, as sent.
 * - REST API (payload 1.0): only the parameters, already DECODED, in
 *   `multiValueQueryStringParameters` (every value) and `queryStringParameters` (the last one):
 *   encoded again here, from the first when present, since it loses nothing.
 * - ALB: the parameters as the client sent them, NOT decoded (AWS: "If the query parameters are
 *   URL-encoded, the load balancer does not decode them"), in `multiValueQueryStringParameters`
 *   when the target group has multi-value headers on, else `queryStringParameters`: joined as they
 *   are.
 *
 * The order of distinct names is the event's; a repeated name keeps its values in order.
 */
export function requestQuery(classified: ClassifiedEvent): string {
  if (classified.kind === 'http') {
    const raw: unknown = classified.event.rawQueryString;
    return typeof raw === 'string' ? raw : '';
  }
  const pairs = queryPairs(classified.event);
  // URLSearchParams encodes as a form does (a space as `+`, which it reads back as a space) and
  // never throws, not even on a lone surrogate of a hand-made event (it becomes U+FFFD).
  if (classified.kind === 'rest') return new URLSearchParams(pairs).toString();
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** The name and value pairs of a payload 1.0 or ALB event: every value of the multi-value map when there is one. */
function queryPairs(event: {
  readonly queryStringParameters?: unknown;
  readonly multiValueQueryStringParameters?: unknown;
}): [string, string][] {
  const pairs: [string, string][] = [];
  const multi = event.multiValueQueryStringParameters;
  if (isRecord(multi)) {
    for (const [name, values] of Object.entries(multi)) {
      if (!Array.isArray(values)) continue;
      for (const value of values) if (typeof value === 'string') pairs.push([name, value]);
    }
    return pairs;
  }
  const single = event.queryStringParameters;
  if (isRecord(single)) {
    for (const [name, value] of Object.entries(single)) if (typeof value === 'string') pairs.push([name, value]);
  }
  return pairs;
}

/**
 * The client address for the rate limit and the request log (docs/protocol.md#client-address), and
 * the `X-Forwarded-For` the service may read with TRUST_PROXY, shaped so that TRUST_PROXY means
 * what it means behind Koa: the proxies in front of the one that called us.
 *
 * - API Gateway (REST and HTTP API) and Function URLs: the peer of AWS's front door is
 *   `requestContext.identity.sourceIp` (REST) or `requestContext.http.sourceIp` (payload 2.0).
 *   AWS appends that address to X-Forwarded-For; that last entry is dropped when it is the same
 *   address, so the header holds only what earlier proxies wrote.
 * - ALB: the event has no source address; the ALB appends its peer to X-Forwarded-For, so the
 *   LAST entry is the client as the ALB saw it, and the entries before it are the header.
 */
export function clientAddress(
  classified: ClassifiedEvent,
  forwardedFor: string | undefined,
): { readonly ip: string; readonly forwardedFor: string | undefined } {
  const entries = (forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const rest = (list: readonly string[]): string | undefined => (list.length === 0 ? undefined : list.join(', '));
  if (classified.kind === 'alb') {
    return { ip: entries.at(-1) ?? '', forwardedFor: rest(entries.slice(0, -1)) };
  }
  const sourceIp =
    classified.kind === 'http'
      ? classified.event.requestContext.http.sourceIp
      : classified.event.requestContext.identity?.sourceIp;
  const ip = typeof sourceIp === 'string' ? sourceIp : '';
  const trimmed = entries.at(-1) === ip ? entries.slice(0, -1) : entries;
  return { ip, forwardedFor: rest(trimmed) };
}

/**
 * The body's bytes. API Gateway and ALBs send a body as text, or as base64 with
 * `isBase64Encoded` (a binary media type, or any body of an HTTP API or a Function URL that is
 * not text). No body is zero bytes (the service answers 400 for it on the public endpoint). The
 * size check is the service's (docs/protocol.md#request: 413 at its place in the order of checks).
 */
export function requestBody(event: {
  readonly body?: string | null | undefined;
  readonly isBase64Encoded?: boolean;
}): Uint8Array {
  const { body } = event;
  if (typeof body !== 'string' || body === '') return new Uint8Array(0);
  const bytes = event.isBase64Encoded === true ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
  // A plain Uint8Array view: the service's port speaks Uint8Array, not Buffer.
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
