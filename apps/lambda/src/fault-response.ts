import { CORS_HEADERS, PUBLIC_PATHS, problemResponse } from '@licence/service';
import type { ServiceResponse } from '@licence/service';

/**
 * The answer when the service itself cannot run (its configuration is missing or bad, its
 * database did not open) or a fault escaped it: an RFC 9457 problem of the service's own types,
 * `internal-error` (500) or `service-unavailable` (503), from the service's one problem builder.
 * NEVER a signed refusal (docs/protocol.md#errors: only a real verdict may stop a product; a client
 * keeps its cached verdict on a 5xx, docs/protocol.md#clients). The detail says nothing of the
 * cause: that is in the log line, for the operator. The public endpoint's answers carry CORS,
 * errors included (docs/protocol.md#request), so these do too.
 */
export function faultResponse(status: 500 | 503, path: string): ServiceResponse {
  const cors = PUBLIC_PATHS.includes(path) ? CORS_HEADERS : {};
  return status === 503
    ? problemResponse('service-unavailable', 'the service cannot reach its database; retry later', cors)
    : problemResponse('internal-error', 'an internal error occurred', cors);
}

/** A direct invocation with something that is no HTTP event of an integration we know. */
export function notAnHttpEventResponse(): ServiceResponse {
  return problemResponse(
    'invalid-request',
    'not an event of API Gateway (REST or HTTP API), a Lambda Function URL or an Application Load Balancer',
  );
}
