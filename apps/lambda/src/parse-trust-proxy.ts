import { isValidationError } from '@licence/core';
import { compileCidrs } from '@licence/service';
import type { TrustProxy } from '@licence/service';

/**
 * TRUST_PROXY (DESIGN 5, 7), read exactly as the Koa server reads it (apps/koa-server's
 * trust-proxy.ts; lambda-config.test.ts checks the two agree on every form):
 *
 * - unset, empty, `false` or `0`: never believe X-Forwarded-For;
 * - a hop count `N` (1..32): the Nth address from the right;
 * - a comma-separated list of CIDRs or addresses, plus proxy-addr's names `loopback`,
 *   `linklocal`, `uniquelocal`: walk from the right past trusted addresses.
 *
 * `true` is refused: it would believe the leftmost entry, which any client writes (DESIGN 5).
 * On Lambda the "socket" is AWS's front door (to-service-request.ts), so TRUST_PROXY counts the
 * proxies in front of it, a CloudFront distribution for instance.
 */
export type TrustProxyParse =
  | { readonly ok: true; readonly value: TrustProxy | undefined }
  | { readonly ok: false; readonly error: string };

/** A hop count beyond this is a typo, not a real chain of proxies (the Koa server's bound). */
export const MAX_TRUST_PROXY_HOPS = 32;

const HOPS = /^[0-9]+$/;

export function parseTrustProxy(raw: string | undefined): TrustProxyParse {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return { ok: true, value: undefined };
  if (value === 'true') {
    return {
      ok: false,
      error: 'TRUST_PROXY: "true" would believe any client\'s X-Forwarded-For; give a hop count (e.g. 1) or a comma-separated CIDR list',
    };
  }
  if (HOPS.test(value)) {
    const hops = Number(value);
    if (hops > MAX_TRUST_PROXY_HOPS) return { ok: false, error: `TRUST_PROXY: hop count must be 0..${MAX_TRUST_PROXY_HOPS}, got ${value}` };
    return { ok: true, value: { hops } };
  }
  const cidrs: string[] = [];
  for (const part of value.split(',')) {
    const entry = part.trim();
    if (entry === '') return { ok: false, error: 'TRUST_PROXY: empty entry in the CIDR list' };
    // The service's own parser decides what a CIDR is: one rule, one place.
    try {
      compileCidrs([entry]);
    } catch (error) {
      if (!isValidationError(error)) throw error;
      return {
        ok: false,
        error: `TRUST_PROXY: ${JSON.stringify(entry)} is neither a hop count nor an IP address or CIDR (e.g. 1, or 10.0.0.0/8, ::1)`,
      };
    }
    cidrs.push(entry);
  }
  return { ok: true, value: { cidrs: [...new Set(cidrs)] } };
}
