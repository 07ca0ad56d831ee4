import { HttpError } from '../http/index.js';
import type { Headers } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The service's icon at `/favicon.ico` (docs/protocol.md#favicon): a browser asks for it on any
 * page that names none (`/` included), and the buyer pages link it, so that no page of the service
 * leaves a 404 in the browser's console. Served always, admin API on or off, like the buyer pages.
 */

export const FAVICON_PATH = '/favicon.ico';

/**
 * The console's icon (packages/console/src/icon.svg), titled for the service rather than for the
 * console. Deliberately a copy: the service does not depend on the console, whose files an adapter
 * hands over only with the admin API; favicon-route.test.ts fails when the two drawings part.
 * Browsers take an SVG at this path by its `Content-Type`, whatever the `.ico` says.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Licence</title><rect width="32" height="32" rx="6" fill="#1f4e8c"/><path d="M10 8h4v13h8v3H10z" fill="#fff"/></svg>\n';

/**
 * docs/protocol.md#favicon: the one answer of the service that a cache may keep (a day), being the
 * same for everyone; `nosniff` as on every answer; and, should the SVG be opened as a document, a
 * policy that lets it load and run nothing.
 */
export const FAVICON_HEADERS: Headers = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Cache-Control': 'public, max-age=86400',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'",
};

const FAVICON_ALLOW = 'GET, HEAD';

/** Answers `/favicon.ico`: the icon to GET and HEAD, a 405 problem with `Allow` to anything else. */
export function handleFavicon(request: ServiceRequest): ServiceResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new HttpError('method-not-allowed', `use ${FAVICON_ALLOW} on this path`, {
      headers: { Allow: FAVICON_ALLOW },
    });
  }
  return { status: 200, headers: FAVICON_HEADERS, body: request.method === 'HEAD' ? '' : FAVICON_SVG };
}
