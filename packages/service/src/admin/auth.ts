import { createHash, timingSafeEqual } from 'node:crypto';
import { describeError } from '@licence/core';
import { hashAuthorToken, isAuthorTokenShape } from './author-token.js';
import { clientIp, rateLimitKey } from '../http/index.js';
import { OPERATOR, type Principal } from './types.js';
import { createMemoryRateLimiter, type MemoryRateLimiter } from '../ports/index.js';
import type { AuthorTokenRecord } from '../ports/index.js';
import { HttpError } from '../http/index.js';
import { callOr503, nowSeconds, type ServiceContext } from '../http/index.js';
import type { ServiceRequest } from '../http/index.js';

/**
 * Authentication of the admin API (docs/protocol.md#administration, #authors): the Bearer token is
 * the operator's, compared in constant time, or an author token, looked up by its SHA-256; and a
 * limit on failed authentications per client.
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
 * The token of `Authorization: Bearer <token>` (RFC 6750 2.1; the scheme is case-insensitive, RFC
 * 9110 11.1), or undefined.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
}

/**
 * True when `Authorization: Bearer <token>` carries the admin token. Compared in constant time
 * (docs/protocol.md#administration): hashing first makes the lengths equal, so `timingSafeEqual`
 * leaks neither the token nor its length.
 */
export function isAuthorized(header: string | undefined, expected: Buffer): boolean {
  const token = bearerToken(header);
  if (token === undefined) return false;
  return timingSafeEqual(hashToken(token), expected);
}

/**
 * `lastUsedAt` is kept to the minute (docs/protocol.md#authors): a token used again within it
 * writes nothing, which spares the store a write on most admin requests.
 */
export const TOKEN_USE_RESOLUTION_SECONDS = 60;

/**
 * The author token `token` names, or null; its last use noted when it is a minute old or more. A
 * token not of the author-token form is not looked up. The store failing the look-up is a 503
 * (not a failure of the client: nothing is counted); failing the note is only a warning, without
 * the token, and the request goes on.
 */
async function authorTokenOf(context: ServiceContext, token: string): Promise<AuthorTokenRecord | null> {
  if (!isAuthorTokenShape(token)) return null;
  const hash = hashAuthorToken(token);
  const found = await callOr503(() => context.store.findAuthorToken(hash));
  if (found === null) return null;
  const now = nowSeconds(context.clock);
  if (found.lastUsedAt === null || now - found.lastUsedAt >= TOKEN_USE_RESOLUTION_SECONDS) {
    try {
      await context.store.touchAuthorToken(found.id, now);
    } catch (error) {
      context.logger.warn(
        { event: 'author-token-touch-failed', tokenId: found.id, err: describeError(error) },
        'could not note the last use of an author token',
      );
    }
  }
  return found;
}

/** Who the request's token is: the operator, an author, or null (no such token). */
async function principalOf(context: ServiceContext, request: ServiceRequest): Promise<Principal | null> {
  const { adminTokenHash } = context;
  if (adminTokenHash !== null && isAuthorized(request.headers.authorization, adminTokenHash)) return OPERATOR;
  const token = bearerToken(request.headers.authorization);
  const found = token === undefined ? null : await authorTokenOf(context, token);
  return found === null ? null : { role: 'author', author: found.authorId, tokenId: found.id };
}

/**
 * Lets an admin request through as its principal, or throws its 429 (the client is locked out),
 * 401 (missing or unknown token, counted and logged) or 503 (the store did not answer the author
 * token's look-up). `route` is the route's log name, never the path (it may hold a key).
 */
export async function authenticateAdmin(
  context: ServiceContext,
  failures: AdminAuthFailures,
  request: ServiceRequest,
  route: string,
): Promise<Principal> {
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
  const principal = await principalOf(context, request);
  if (principal !== null) return principal;

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
