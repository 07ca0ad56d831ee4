import { CORS_HEADERS, PUBLIC_PATHS, problemResponse } from '@licence/service';
import type { ServiceResponse } from '@licence/service';

/**
 * The answer to a fault of ours that escaped the service (a bug in the adapter, a broken stream):
 * a 500 problem+json (RFC 9457) of the service's own `internal-error` type, built by the service's
 * one problem builder, never an HTML page and never a signed refusal (docs/protocol.md#errors: only
 * a real verdict may stop a product). The detail says nothing about the cause: that goes to the
 * log, not to the client. On the public endpoint it carries the CORS headers the service puts on
 * every answer there, errors included (docs/protocol.md#request), so a browser client reads this
 * 500 as a fault rather than as a network failure.
 */
export function internalErrorResponse(path: string): ServiceResponse {
  return problemResponse(
    'internal-error',
    'an internal error occurred',
    PUBLIC_PATHS.includes(path) ? CORS_HEADERS : {},
  );
}
