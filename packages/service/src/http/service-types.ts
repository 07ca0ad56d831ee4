import type { RandomBytes, VerdictSettings } from '@licence/core';
import type { AdminOperations } from '../admin/index.js';
import type { Clock, Logger, RateLimiter, Signer, Store } from '../ports/index.js';

/**
 * What an adapter hands the service (CONTRIBUTING.md#architecture: Koa and Lambda turn their
 * request into this and the result back). HTTP-agnostic: no framework type crosses this line.
 */
export interface ServiceRequest {
  readonly method: string;
  /** The path without query string, e.g. `/api/licence`. */
  readonly path: string;
  /**
   * The raw query string without `?` (`days=90`), when the request had one. Only the admin API's
   * activity route reads it (docs/protocol.md#activity); every other route ignores it.
   */
  readonly query?: string | undefined;
  /** Header names in lower case; a repeated header joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /**
   * The raw body bytes, or null when the adapter stopped reading because it exceeded
   * `MAX_BODY_BYTES` (the service answers 413 at the right point of the order of checks,
   * docs/protocol.md#request).
   */
  readonly body: Uint8Array | null;
  /**
   * The socket's peer address (docs/protocol.md#client-address: X-Forwarded-For only counts with
   * `trustProxy`).
   */
  readonly ip: string;
  /**
   * The scheme of the connection as the adapter knows it (docs/protocol.md#buyer-links: a buyer
   * link built without LICENCE_PUBLIC_URL): `https` over TLS. Unset: `http`. Under `trustProxy`,
   * the nearest proxy's `X-Forwarded-Proto` wins (request-origin.ts).
   */
  readonly scheme?: 'http' | 'https' | undefined;
}

export interface ServiceResponse {
  readonly status: number;
  /** Header names in canonical case (`Content-Type`, `Retry-After`...). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text ("" for none). */
  readonly body: string;
}

/** docs/protocol.md#client-address: TRUST_PROXY, a hop count or a list of trusted CIDRs. */
export type TrustProxy = { readonly hops: number } | { readonly cidrs: readonly string[] };

export interface ServiceOptions {
  readonly store: Store;
  readonly rateLimiter: RateLimiter;
  readonly clock: Clock;
  readonly signer: Signer;
  readonly logger: Logger;
  /** For key generation (node's `randomBytes`). */
  readonly random: RandomBytes;
  /** Defaults (docs/protocol.md#verdict): 86400 and 2592000. */
  readonly settings?: VerdictSettings;
  /** Unset: X-Forwarded-For is ignored. */
  readonly trustProxy?: TrustProxy;
  /**
   * Unset or empty: the admin API answers 404 (docs/protocol.md#administration: off unless
   * LICENCE_ADMIN_TOKEN is set).
   */
  readonly adminToken?: string;
  /**
   * docs/protocol.md#user-agent-filter: the User-Agent filter, configurable; defaults to its
   * library list.
   */
  readonly blockedUserAgents?: readonly RegExp[];
  /**
   * docs/protocol.md#console: the console's built files, served under `/console` while the admin API
   * is on. Unset: `/console` is a 404 like any unknown path.
   */
  readonly console?: ConsoleAssets;
  /**
   * The admin operations (CONTRIBUTING.md#architecture: one declaration each); the service's own
   * table (ADMIN_OPERATIONS) unless given. A test or an extension hands a table with more.
   */
  readonly adminOperations?: AdminOperations;
  /**
   * docs/protocol.md#webhooks: LICENCE_WEBHOOK_ALLOW_PRIVATE=1, webhook endpoints may be `http` and
   * reach private, loopback and link-local addresses (a receiver on the same machine or network).
   * Default false. The deliverer takes the same setting (`allowPrivate`).
   */
  readonly webhookAllowPrivate?: boolean;
  /**
   * docs/protocol.md#endpoints: LICENCE_WEBHOOKS_PER_AUTHOR, the webhook endpoints one author may
   * have (an integer from 0 to 1000; every-author endpoints are not counted). Default 10.
   */
  readonly webhooksPerAuthor?: number;
  /**
   * docs/protocol.md#buyer-links: LICENCE_PUBLIC_URL, where buyers reach the service (an absolute
   * http(s) URL, optionally with a path prefix, no query nor fragment): buyer links are built on it,
   * and a buyer's POST must come from its origin. Unset: from each request's scheme and `Host`.
   */
  readonly publicUrl?: string;
  /**
   * docs/protocol.md#buyer-links: LICENCE_BUYER_TRANSFERS_PER_30_DAYS, the transfers a buyer may make
   * per key lineage in any 30 days, an integer from 0 (off) to 100. Default 3.
   */
  readonly buyerTransfersPer30Days?: number;
  /**
   * docs/protocol.md#staging-hosts: the operator's staging host patterns (LICENCE_STAGING_HOSTS,
   * `parseStagingHosts`), beyond the built-in ones: a host matching one answers `ok` with `essai`
   * true for every key, and is never bound. At most 50, each a pattern core's
   * `parseStagingPattern` takes (normalised here). Default none.
   */
  readonly stagingHosts?: readonly string[];
}

/**
 * The console's files (docs/protocol.md#console), by name (`index.html`, `console.js`,
 * `console.css`...): each with its `Content-Type` and its text. `index.html` is required.
 */
export interface ConsoleAssets {
  readonly files: Readonly<Record<string, { readonly type: string; readonly body: string }>>;
}

export interface Service {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  /**
   * The daily purge. docs/protocol.md#privacy: delete the request-log entries older than twelve
   * months, with their client IPs; returns their count. docs/protocol.md#webhooks: delete the
   * webhook events older than 30 days with their deliveries (counted in the log line).
   */
  purge(): Promise<number>;
}
