import { compileTrustProxy, isTrustedPeer } from '@licence/service';
import type { TrustProxy } from '@licence/service';

/**
 * What the start says about TRUST_PROXY (docs/protocol.md#client-address). With a hop count every
 * peer is taken for a proxy, so the server must be reachable only through those proxies: a client
 * that reaches it directly writes X-Forwarded-For itself, takes any address it likes, and so
 * escapes the rate limit, the admin lockout and the cap per address (an audit rotated the header:
 * 40 verdicts of 40, 15 wrong tokens and no lockout). A CIDR list has no such trap: the header is
 * read only from the peers it names. Pure: the banner and the start's log line print it.
 */
export interface TrustProxyNotice {
  /** One line on how the client address is read; none without TRUST_PROXY. */
  readonly info?: string;
  /** A hop count while listening beyond loopback: the trap above is open to whoever reaches HOST. */
  readonly warning?: string;
}

/** proxy-addr's `loopback` (127.0.0.1/8, ::1/128), the one name parseTrustProxy also takes. */
const LOOPBACK = compileTrustProxy({ cidrs: ['loopback'] });

export function trustProxyNotice(trustProxy: TrustProxy | undefined, host: string): TrustProxyNotice {
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
