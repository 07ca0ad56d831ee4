import { rateLimitKey } from './client-ip.js';
import { callOr503, type ServiceContext } from './service-context.js';

/**
 * The rate limits of the routes a stranger reaches (docs/protocol.md#rate-limit,
 * docs/protocol.md#buyer-links), each counted per client address (an IPv4 address, an IPv6 /64:
 * `rateLimitKey`) in the one `RateLimiter` of the service: the store's, so every deployment shares
 * it as it shares the verdicts' (the Koa primary over IPC with LICENCE_WORKERS, PostgreSQL's table
 * across processes, machines and Lambda containers).
 *
 * Each budget has its own names in that limiter: the verdicts' are the bare buckets, as they always
 * were, the buyer pages' are prefixed, so a shop's verdicts and a buyer's page views never spend
 * each other's requests. The prefix holds a space, which no address bucket does.
 */
export type RateLimitBudget = 'verdict' | 'buyer';

const PREFIXES: Readonly<Record<RateLimitBudget, string>> = { verdict: '', buyer: 'buyer ' };

/** The limiter's name of `ip`'s window in `budget`. */
export function rateLimitName(budget: RateLimitBudget, ip: string): string {
  return PREFIXES[budget] + rateLimitKey(ip);
}

/**
 * Counts one request of `ip` (the client address, `clientIp`) in `budget`: 0 when it is counted,
 * else the whole seconds of its `Retry-After` (at least 1), the request not counted. A limiter that
 * fails is a 503, never a refusal (docs/protocol.md#errors).
 */
export async function rateLimitWait(
  context: Pick<ServiceContext, 'rateLimiter' | 'clock'>,
  budget: RateLimitBudget,
  ip: string,
): Promise<number> {
  const name = rateLimitName(budget, ip);
  const nowMs = context.clock.now();
  const limit = await callOr503(() => context.rateLimiter.hit(name, nowMs), 'the rate limiter');
  return limit.allowed ? 0 : Math.max(1, Math.ceil(limit.retryAfter));
}
