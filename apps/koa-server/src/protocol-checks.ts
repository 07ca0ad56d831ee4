import type { IncomingMessage } from 'node:http';
import { problemResponse } from '@licence/service';
import type { ServiceResponse } from '@licence/service';

/**
 * Two HTTP/1.1 rules Node would otherwise answer itself with an empty reply (docs/protocol.md#errors
 * wants problem+json on every error). The server hands such requests to the app instead
 * (`requireHostHeader: false`, a 'checkExpectation' listener) and the app's boundary answers them
 * with these problems, on a connection that then closes.
 */

/** The problem for a request that breaks the Host or Expect rule, or undefined. */
export function protocolProblem(request: IncomingMessage): ServiceResponse | undefined {
  const hosts = countHeader(request.rawHeaders, 'host');
  // RFC 9112 3.2: a 400 for an HTTP/1.1 request without Host, and for any request with several.
  if (hosts > 1 || (hosts === 0 && request.httpVersion !== '1.0')) {
    return problemResponse('invalid-request', 'an HTTP/1.1 request needs exactly one Host header (RFC 9112 3.2)');
  }
  // RFC 9110 10.1.1: 100-continue is the only expectation defined, and the only one met here.
  const expect = request.headers.expect;
  if (expect !== undefined && !expectsContinue(expect)) {
    return problemResponse(
      'invalid-request',
      'the only expectation this server meets is 100-continue (RFC 9110 10.1.1)',
      {},
      417,
    );
  }
  return undefined;
}

/** How many field lines of this name (lower case) the request holds; Node keeps only the first Host. */
function countHeader(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === name) count += 1;
  return count;
}

/** True when the Expect list (RFC 9110 10.1.1) holds a 100-continue member. */
function expectsContinue(expect: string): boolean {
  return expect.split(',').some((member) => member.trim().toLowerCase() === '100-continue');
}
