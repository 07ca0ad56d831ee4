import type { IncomingHttpHeaders } from 'node:http';
import { bodyLimitFor } from '@licence/service';
import type { ServiceRequest } from '@licence/service';
import type { Context } from 'koa';
import { readBody } from './read-body.js';

/**
 * Step 1 of the adapter (CONTRIBUTING.md#architecture; hono's `createRequest`): Koa's request as
 * the service's HTTP-agnostic `{method, path, query, headers, body, ip}`.
 */
export async function toServiceRequest(ctx: Context, onDrainError?: (error: Error) => void): Promise<ServiceRequest> {
  const path = ctx.path;
  const body = await readBody({ headers: ctx.req.headers, stream: ctx.req }, bodyLimitFor(path), onDrainError);
  return {
    method: ctx.method,
    path,
    // The query string as the client sent it, without `?` ('' for none): the service reads what
    // it needs (`?days=`, docs/protocol.md#activity). Never logged: an admin URL may hold a key.
    query: ctx.querystring,
    headers: lowerCaseHeaders(ctx.req.headers),
    body,
    // docs/protocol.md#client-address: the socket's peer; X-Forwarded-For is the service's business
    // (TRUST_PROXY). undefined only once the socket is already gone; '' then, and nobody reads the
    // answer.
    ip: ctx.req.socket.remoteAddress ?? '',
    // docs/protocol.md#buyer-links: a link built on the request's own origin. The connection's
    // own word; behind a proxy, the service reads X-Forwarded-Proto under TRUST_PROXY.
    scheme: isEncrypted(ctx.req.socket) ? 'https' : 'http',
  };
}

/** True for a TLS socket (an HTTPS server mounting the middleware): `tls.TLSSocket#encrypted`. */
function isEncrypted(socket: object): boolean {
  return 'encrypted' in socket && socket.encrypted === true;
}

/**
 * Header names in lower case (Node gives them so), a repeated header joined with ", " as
 * RFC 9110 5.3 allows; `set-cookie`, the one Node keeps as a list, is joined the same way.
 */
export function lowerCaseHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}
