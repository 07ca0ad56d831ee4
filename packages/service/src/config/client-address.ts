import { compileTrustProxy, isTrustedPeer, rateLimitKey } from '../http/index.js';
import type { TrustProxy } from '../http/index.js';

/**
 * TRUST_PROXY as a server applies it beyond the requests the service reads (docs/protocol.md#client-address):
 * the key each connection counts under for the Koa server's cap per client address
 * (docs/protocol.md#limits), and what the start says about the setting. Compiled once, from
 * `parseTrustProxy`'s value, by `readServiceConfig` (ServiceConfig's `clientAddress`), so an app
 * applies the service's rules (the rate-limit key, the trusted peers) without naming them.
 */
export interface ClientAddressRules {
  /**
   * The key a connection from the socket's `peer` counts under for a cap per client address: the
   * peer's rate-limit key (docs/protocol.md#rate-limit: an IPv4 address, an IPv6 /64), or none for
   * a peer inside TRUST_PROXY's CIDR list, a proxy whose connections carry many clients and count
   * only in all (docs/protocol.md#limits). With a hop count every peer keeps its key: the server
   * applies no cap per address then (it must be reachable only through the proxies).
   */
  connectionKey(peer: string): string | undefined;
  /** What the start says about TRUST_PROXY while listening on `host` (a name or an address). */
  notice(host: string): TrustProxyNotice;
}

/**
 * With a hop count every peer is taken for a proxy, so the server must be reachable only through
 * those proxies: a client that reaches it directly writes X-Forwarded-For itself, takes any address
 * it likes, and so escapes the rate limit, the admin lockout and the cap per address (an audit
 * rotated the header: 40 verdicts of 40, 15 wrong tokens and no lockout). A CIDR list has no such
 * trap: the header is read only from the peers it names.
 */
export interface TrustProxyNotice {
  /** One line on how the client address is read; none without TRUST_PROXY. */
  readonly info?: string;
  /** A hop count while listening beyond loopback: the trap above is open to whoever reaches the host. */
  readonly warning?: string;
}

/** proxy-addr's `loopback` (127.0.0.1/8, ::1/128), the one name parseTrustProxy also takes. */
const LOOPBACK = compileTrustProxy({ cidrs: ['loopback'] });

export function clientAddressRules(trustProxy: TrustProxy | undefined): ClientAddressRules {
  // Only a CIDR list names proxies a connection can be told apart by (see connectionKey).
  const proxies = trustProxy !== undefined && 'cidrs' in trustProxy ? compileTrustProxy(trustProxy) : undefined;
  return {
    connectionKey: (peer) => (isTrustedPeer(peer, proxies) ? undefined : rateLimitKey(peer)),
    notice: (host) => trustProxyNotice(trustProxy, host),
  };
}

function trustProxyNotice(trustProxy: TrustProxy | undefined, host: string): TrustProxyNotice {
  if (trustProxy === undefined) return {};
  if ('cidrs' in trustProxy) {
    return {
      info: `client address (TRUST_PROXY): X-Forwarded-For is read only from ${trustProxy.cidrs.join(', ')}; any other peer is a client, capped per address (docs/protocol.md#client-address)`,
    };
  }
  const hops = trustProxy.hops;
  const info = `client address (TRUST_PROXY=${hops}, a hop count): the server must be reachable only through its proxies (${hops} in front of it), or a client writes its own X-Forwarded-For (docs/protocol.md#client-address)`;
  if (isLoopback(host)) return { info };
  return {
    info,
    warning: `warning: TRUST_PROXY=${hops} is a hop count and HOST=${host} is not a loopback address: a client that reaches the server directly chooses its own address and escapes the rate limit and the admin lockout; give TRUST_PROXY your proxies' addresses instead (a CIDR list, e.g. TRUST_PROXY=10.0.0.0/8), or listen on loopback behind them`,
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || isTrustedPeer(host, LOOPBACK);
}
