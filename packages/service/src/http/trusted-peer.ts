import { type CompiledTrustProxy, isTrusted, parseAddress } from './client-ip.js';

/**
 * Whether a socket's peer is one of the proxies `TRUST_PROXY` trusts (docs/protocol.md#client-address):
 * with a hop count every peer is taken for one (nothing else may reach the server then), with a CIDR
 * list only a peer inside it. A proxy's `X-Forwarded-Proto` is believed (request-origin.ts), and the
 * Koa server exempts its connections from the cap per address, which it cannot apply to the clients
 * behind it (docs/protocol.md#limits).
 */
export function isTrustedPeer(ip: string, trust: CompiledTrustProxy | undefined): boolean {
  if (trust === undefined) return false;
  if ('hops' in trust) return trust.hops > 0;
  const address = parseAddress(ip);
  return address !== null && isTrusted(address, trust.ranges);
}
