import { createHash, timingSafeEqual } from 'node:crypto';
import { clientIp, rateLimitKey } from './client-ip.js';
import { createMemoryRateLimiter, type MemoryRateLimiter } from './memory-rate-limiter.js';
import { HttpError } from './problem.js';
import type { ServiceContext } from './service-context.js';
import type { ServiceRequest } from './service-types.js';

/**
 * Authentication of the admin API (docs/protocol.md#administration): the Bearer token, compared in
 * constant time, and a limit on failed authentications per client.
 *
 * The limit: at most `ADMIN_AUTH_FAILURES.limit` failures per client in any sliding
 * `windowMs`, the client being the one of the public rate limit (docs/protocol.md#client-address,
 * TRUST_PROXY included; IPv6 by its /64). Beyond, every admin request of that client is a 429 with
 * `Retry-After` until the oldest failure leaves the window, even one with the right token: the
 * answer never tells whether a guess was right. The failures are kept by the service's memory
 * sliding window (memory-rate-limiter.ts), so the limit holds per process (per Lambda instance),
 * and clients whose window emptied are forgotten.
 *
 * Each failure is a warn line `{event: 'admin-auth-failed', ip, route}`, and the failure that fills
 * the window one more, `{event: 'admin-auth-locked', ip, retryAfter}`: at most two lines per
 * counted failure, never one per refused request, and never the token.
 */

/** Failed authentications per client in any window (docs/protocol.md#administration). */
export const ADMIN_AUTH_FAILURES = { limit: 10, windowMs: 60_000 } as const;

/** The failures of each client: the memory sliding window, one per service. */
export type AdminAuthFailures = MemoryRateLimiter;

export function createAdminAuthFailures(): AdminAuthFailures {
  return createMemoryRateLimiter(ADMIN_AUTH_FAILURES);
}

/** SHA-256 of a token: both sides hashed to the same length before `timingSafeEqual`. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * True when `Authorization: Bearer <token>` (RFC 6750 2.1; the scheme is case-insensitive, RFC
 * 9110 11.1) carries the admin token. Compared in constant time (docs/protocol.md#administration):
 * hashing first makes the lengths equal, so `timingSafeEqual` leaks neither the token nor its
 * length.
 */
export function isAuthorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const token = match?.[1];
  if (token === undefined) return false;
  return timingSafeEqual(hashToken(token), expected);
}

/**
 * Lets an admin request through, or throws its 429 (the client is locked out) or 401 (missing or
 * wrong token, counted and logged). `route` is the route's log name, never the path (it may hold
 * a key).
 */
export async function authenticateAdmin(
  context: ServiceContext,
  failures: AdminAuthFailures,
  request: ServiceRequest,
  route: string,
): Promise<void> {
  const ip = clientIp(request.ip, request.headers['x-forwarded-for'], context.trust);
  const client = rateLimitKey(ip);
  const nowMs = context.clock.now();
  const locked = failures.retryAfter(client, nowMs);
  if (locked > 0) {
    throw new HttpError(
      'rate-limited',
      `too many failed admin authentications from this address; retry in ${locked} s`,
      { headers: { 'Retry-After': String(locked) } },
    );
  }
  const { adminTokenHash } = context;
  if (adminTokenHash !== null && isAuthorized(request.headers.authorization, adminTokenHash)) return;

  context.logger.warn({ event: 'admin-auth-failed', ip, route }, 'admin authentication failed');
  // Two failures racing for the last place: only the one counted fills the window and says so.
  const counted = await failures.hit(client, nowMs);
  const lockout = counted.allowed ? failures.retryAfter(client, nowMs) : 0;
  if (lockout > 0) {
    context.logger.warn(
      { event: 'admin-auth-locked', ip, retryAfter: lockout },
      'admin API locked for this address after too many failed authentications',
    );
  }
  throw new HttpError('unauthorized', 'send Authorization: Bearer <admin token>', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}
