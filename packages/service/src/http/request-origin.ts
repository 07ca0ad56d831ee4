import type { CompiledTrustProxy } from './client-ip.js';
import { HttpError } from './problem.js';
import type { ServiceRequest } from './service-types.js';
import { isTrustedPeer } from './trusted-peer.js';

/**
 * Where the buyer reaches the service (docs/protocol.md#buyer-links): the base of a buyer link, and
 * the one origin a buyer's POST may come from. LICENCE_PUBLIC_URL when set (`publicUrl`, already
 * normalised: buyer-config.ts); otherwise the request's own scheme and `Host`:
 *
 * - the scheme is what the adapter says of the connection (`ServiceRequest.scheme`: the Koa server
 *   sees TLS or not, API Gateway and Function URLs are https), `http` when it says nothing;
 * - with TRUST_PROXY, the `X-Forwarded-Proto` of the nearest proxy (its last entry) wins, as its
 *   `X-Forwarded-For` does for the client address (docs/protocol.md#client-address): with a CIDR
 *   list, only when the peer is one of them;
 * - `Host` must be a host name or an IP literal with an optional port, nothing else.
 *
 * A wrong scheme or Host only hurts whoever sent it: the admin who asks for a link gets a link
 * built on their own request, and a buyer's browser sends its own page's `Origin`.
 */

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** The scheme of the request as the service believes it. */
function schemeOf(request: ServiceRequest, trust: CompiledTrustProxy | undefined): 'http' | 'https' {
  const forwarded = request.headers['x-forwarded-proto'];
  if (forwarded !== undefined && isTrustedPeer(request.ip, trust)) {
    const nearest = forwarded.split(',').at(-1)?.trim().toLowerCase();
    if (nearest === 'http' || nearest === 'https') return nearest;
  }
  return request.scheme ?? 'http';
}

/** `scheme://host[:port]` of the request, or null when its `Host` is missing or not a host. */
export function requestOrigin(request: ServiceRequest, trust: CompiledTrustProxy | undefined): string | null {
  const host = request.headers.host?.trim();
  if (host === undefined || !HOST.test(host)) return null;
  const text = `${schemeOf(request, trust)}://${host}`;
  // The URL parser lower-cases the host and drops a default port, as a browser's `Origin` does.
  return URL.canParse(text) ? new URL(text).origin : null;
}

/** What buyer links start with: the public URL, else the request's origin; a 400 when neither. */
export function publicBase(
  publicUrl: string | null,
  request: ServiceRequest,
  trust: CompiledTrustProxy | undefined,
): string {
  if (publicUrl !== null) return publicUrl;
  const origin = requestOrigin(request, trust);
  if (origin === null) {
    throw new HttpError(
      'invalid-request',
      'Host: expected a host name and port to build the link on; or set LICENCE_PUBLIC_URL',
    );
  }
  return origin;
}

/** The origin a buyer's page is served from: the public URL's, else the request's; null when neither. */
export function pageOrigin(
  publicUrl: string | null,
  request: ServiceRequest,
  trust: CompiledTrustProxy | undefined,
): string | null {
  return publicUrl !== null ? new URL(publicUrl).origin : requestOrigin(request, trust);
}

/**
 * True when the request's `Origin` is exactly `expected` (RFC 6454 7: the browser's serialisation).
 * Absent, `null` (an opaque origin) or another origin is false: a buyer's form is posted by the
 * browser from the service's own page, which always sends it (the page's Referrer-Policy is
 * `strict-origin`, buyer/page.ts: under `no-referrer` a browser would send `Origin: null`).
 */
export function isSameOrigin(originHeader: string | undefined, expected: string | null): boolean {
  if (originHeader === undefined || expected === null) return false;
  const value = originHeader.trim();
  if (value === 'null' || !URL.canParse(value)) return false;
  return new URL(value).origin === expected;
}
