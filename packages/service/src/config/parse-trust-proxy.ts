import { isValidationError } from '@licence/core';
import { compileCidrs, MAX_TRUST_PROXY_HOPS } from '../http/index.js';
import { invalid, type Parsed, parsed } from './parsed.js';
import type { TrustProxy } from '../http/index.js';

/**
 * TRUST_PROXY (docs/protocol.md#client-address, #configuration): when X-Forwarded-For is believed.
 * One parser for every adapter (the Koa server and the Lambda handler read the variable alike).
 *
 * - unset, empty, `false` or `0`: never (the socket's address is the client).
 * - a hop count `N` (1..32): the Nth address from the right.
 * - a comma-separated list of CIDRs or bare addresses (`10.0.0.0/8, ::1`), plus the names
 *   `loopback`, `linklocal` and `uniquelocal` that Express's proxy-addr also accepts: walk from the
 *   right past trusted addresses, take the first untrusted one.
 *
 * `true` is refused on purpose: it would believe the leftmost entry, which any client writes
 * itself (docs/protocol.md#client-address: the leftmost entry is never trusted merely for being
 * first).
 */

const HOPS = /^[0-9]+$/;

/** Parses one TRUST_PROXY value; faults name the variable and the bad entry (never a secret here). */
export function parseTrustProxy(raw: string | undefined): Parsed<TrustProxy | undefined> {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return parsed(undefined);
  if (value === 'true') {
    return invalid(
      'TRUST_PROXY',
      '"true" would believe any client\'s X-Forwarded-For; give a hop count (e.g. 1) or a comma-separated CIDR list',
    );
  }
  if (HOPS.test(value)) {
    const hops = Number(value);
    if (hops > MAX_TRUST_PROXY_HOPS) {
      return invalid('TRUST_PROXY', `hop count must be 0..${MAX_TRUST_PROXY_HOPS}, got ${value}`);
    }
    return parsed({ hops });
  }
  const cidrs: string[] = [];
  for (const part of value.split(',')) {
    const entry = part.trim();
    if (entry === '') return invalid('TRUST_PROXY', 'empty entry in the CIDR list');
    // The service's own parser decides what a CIDR is (one rule, one place); it also takes
    // proxy-addr's names `loopback`, `linklocal` and `uniquelocal`.
    try {
      compileCidrs([entry]);
    } catch (error) {
      if (!isValidationError(error)) throw error;
      return invalid(
        'TRUST_PROXY',
        `${JSON.stringify(entry)} is neither a hop count nor an IP address or CIDR (e.g. 1, or 10.0.0.0/8, ::1)`,
      );
    }
    cidrs.push(entry);
  }
  return parsed({ cidrs: [...new Set(cidrs)] });
}
