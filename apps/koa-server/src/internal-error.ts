import { problemResponse } from '@licence/service';
import type { ServiceResponse } from '@licence/service';

/**
 * The answer to a fault of ours that escaped the service (a bug in the adapter, a broken stream):
 * a 500 problem+json (RFC 9457) of the service's own `internal-error` type, built by the service's
 * one problem builder, never an HTML page and never a signed refusal (docs/protocol.md#errors: only
 * a real verdict may stop a product). The detail says nothing about the cause: that goes to the
 * log, not to the client.
 */
export function internalErrorResponse(): ServiceResponse {
  return problemResponse('internal-error', 'an internal error occurred');
}
