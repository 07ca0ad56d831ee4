import { type BuyerReply, endAnswer } from './answer.js';
import { clientIp } from '../http/index.js';
import { rateLimitWait } from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The buyer pages' rate limit (docs/protocol.md#buyer-links): every request for the key's page
 * (`GET`, `HEAD`) and every transfer posted from the page's own origin counts against its client
 * address (docs/protocol.md#client-address, an IPv6 address by its /64) in the `buyer` budget of
 * the service's RateLimiter, apart from the verdicts' (client-rate-limit.ts). It runs before the
 * token is looked at: its signature check is the costly step, and a well-formed forged token must
 * cost a flood no more than a refusal. The style sheet, a 404 and a 405 are cheaper than the count
 * and do not take it.
 *
 * Over the limit, the answer is the `too-many-requests` page (429, a problem to JSON), with
 * `Retry-After`; null when the request was counted and may go on.
 */
export async function buyerRateLimited(
  context: Pick<ServiceContext, 'rateLimiter' | 'clock' | 'trust'>,
  request: ServiceRequest,
  reply: BuyerReply,
): Promise<ServiceResponse | null> {
  const ip = clientIp(request.ip, request.headers['x-forwarded-for'], context.trust);
  const retryAfter = await rateLimitWait(context, 'buyer', ip);
  return retryAfter === 0 ? null : endAnswer('too-many-requests', reply, { retryAfter });
}
