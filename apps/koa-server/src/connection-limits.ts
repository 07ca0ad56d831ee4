import { readFileSync } from 'node:fs';
import { invalid, parsed } from '@licence/service';
import type { Parsed, ServiceConfig } from '@licence/service';

/**
 * How many connections the server holds at once (docs/protocol.md#limits): a total below what the
 * process may open, and a cap per client address, so one client holding idle connections cannot
 * take the descriptors every other client needs. What the process may open is shared with the
 * webhook deliverer's outbound sockets (one per attempt in flight, at most
 * LICENCE_WEBHOOK_CONCURRENCY, docs/protocol.md#delivery): they are kept out of the total, so that
 * connections + attempts + the reserve never exceed the open-file limit, however many receivers
 * accept and never answer.
 */

/** LICENCE_MAX_CONNECTIONS when unset, unless the descriptor limit is lower. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;
/** LICENCE_MAX_CONNECTIONS_PER_IP when unset: far above what a shop's sites open (about one call a day each). */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 100;
/** Descriptors kept out of the total for the database, the key file, the logs and refused connections. */
export const DESCRIPTOR_RESERVE = 256;
/** The open-file limit assumed when /proc/self/limits cannot be read (not Linux): the usual soft limit. */
export const FALLBACK_OPEN_FILES = 1024;

/** What the connection guard enforces. */
export interface ConnectionLimits {
  readonly maxConnections: number;
  /**
   * Undefined: no cap per address (TRUST_PROXY a hop count: every peer is taken for a proxy, and
   * the server must be reachable only through the proxies, docs/protocol.md#client-address).
   */
  readonly maxConnectionsPerIp: number | undefined;
  /**
   * TRUST_PROXY's CIDR list (docs/protocol.md#limits): a peer inside it is a trusted proxy, whose
   * connections carry many clients, so the cap per address does not apply to it; every other peer
   * keeps the cap. Absent: no peer is exempt. The start line reports it; the guard applies it
   * through the service's rule read from the same variable (ServiceConfig's
   * `clientAddress.connectionKey`).
   */
  readonly trustedProxies?: readonly string[];
}

/** The configuration the limits come from (ServerConfig's fields). */
export interface ConfiguredLimits {
  /** LICENCE_MAX_CONNECTIONS; undefined: the default. */
  readonly maxConnections: number | undefined;
  readonly maxConnectionsPerIp: number;
  readonly trustProxy: ServiceConfig['trustProxy'];
  /** LICENCE_WEBHOOK_CONCURRENCY: the deliverer's sockets at most, kept out of the total. */
  readonly webhookConcurrency: number;
}

/**
 * The limits for this process. The total is LICENCE_MAX_CONNECTIONS or 10,000, and never more than
 * the open-file limit minus the reserve and the webhook attempts: a configured value above it stops
 * the start (one line naming the variable), the default shrinks to fit. The cap per address is
 * `perAddressCap`'s. (A worker of LICENCE_WORKERS runs no
 * deliverer, but keeps the same room: one rule for every process is easier to reason about.)
 */
export function connectionLimits(config: ConfiguredLimits, openFiles: number): Parsed<ConnectionLimits> {
  const outbound = config.webhookConcurrency;
  const room = openFiles - DESCRIPTOR_RESERVE - outbound;
  if (openFiles - DESCRIPTOR_RESERVE < 1) {
    return invalid(
      'LICENCE_MAX_CONNECTIONS',
      `the process may open only ${openFiles} files, not more than the ${DESCRIPTOR_RESERVE} kept for the database and files; raise the limit (ulimit -n)`,
    );
  }
  if (room < 1) {
    return invalid(
      'LICENCE_WEBHOOK_CONCURRENCY',
      `${outbound} webhook attempts leave no connection: the process may open only ${openFiles} files, ${DESCRIPTOR_RESERVE} of them kept for the database and files; lower it or raise the limit (ulimit -n)`,
    );
  }
  if (config.maxConnections !== undefined && config.maxConnections > room) {
    return invalid(
      'LICENCE_MAX_CONNECTIONS',
      `${config.maxConnections} is above what this process may open: at most ${room} (open-file limit ${openFiles} minus ${DESCRIPTOR_RESERVE} kept for the database and files and ${outbound} for webhook attempts, LICENCE_WEBHOOK_CONCURRENCY); lower it or raise the limit (ulimit -n)`,
    );
  }
  return parsed({
    maxConnections: config.maxConnections ?? Math.min(DEFAULT_MAX_CONNECTIONS, room),
    ...perAddressCap(config),
  });
}

/**
 * The cap per address under TRUST_PROXY (docs/protocol.md#limits). A proxy's connections carry all
 * its clients, so a trusted proxy is exempt; what is trusted decides the rest:
 *
 * - no TRUST_PROXY: every peer is a client, capped;
 * - a CIDR list: the peers inside it are the proxies, exempt; any other peer is a client that
 *   reached the server directly, capped as without a proxy;
 * - a hop count: every peer is taken for a proxy (the count says how many stand in front, not who
 *   they are), so none is capped; the server must then be reachable only through them, which the
 *   start banner says (docs/protocol.md#client-address).
 */
function perAddressCap(config: ConfiguredLimits): Pick<ConnectionLimits, 'maxConnectionsPerIp' | 'trustedProxies'> {
  const trust = config.trustProxy;
  if (trust === undefined) return { maxConnectionsPerIp: config.maxConnectionsPerIp };
  if ('cidrs' in trust) return { maxConnectionsPerIp: config.maxConnectionsPerIp, trustedProxies: trust.cidrs };
  return { maxConnectionsPerIp: trust.hops > 0 ? undefined : config.maxConnectionsPerIp };
}

/**
 * The open-file limit of this process (its soft limit, which Node raises to the hard limit at
 * start), from /proc/self/limits; FALLBACK_OPEN_FILES where that cannot be read.
 */
export function readOpenFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number {
  let text: string;
  try {
    text = read();
  } catch {
    return FALLBACK_OPEN_FILES;
  }
  return parseOpenFileLimit(text) ?? FALLBACK_OPEN_FILES;
}

/** The soft limit of the "Max open files" line of a /proc/<pid>/limits text; Infinity when unlimited. */
export function parseOpenFileLimit(text: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  if (soft === 'unlimited') return Number.POSITIVE_INFINITY;
  return soft !== undefined && /^[0-9]+$/.test(soft) ? Number(soft) : undefined;
}
