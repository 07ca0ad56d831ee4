import type { RandomBytes } from '@licence/core';
import type { ConsoleAssets, ServiceOptions } from '../http/index.js';
import { randomBytes } from '../ports/index.js';
import type { Logger, RateLimiter, Signer, Store } from '../ports/index.js';
import type { WebhookDelivererOptions } from '../webhooks/index.js';
import type { ServiceConfig } from './shared-config.js';

/**
 * The configuration an app read (`readServiceConfig`) and the ports it opened, as the options of
 * `createService` and `createWebhookDeliverer`: the one mapping every app uses, so that a setting
 * reaches the service alike on the Koa server and on AWS Lambda (docs/protocol.md#configuration).
 * An app adds only what is its own: which store, which limiter, which key.
 */

/** What an app opens itself and hands the service. */
export interface ServicePorts {
  readonly store: Store;
  readonly rateLimiter: RateLimiter;
  readonly signer: Signer;
  readonly logger: Logger;
  /** docs/protocol.md#console: the console's files (@licence/console), served while the admin API is on. */
  readonly console?: ConsoleAssets | undefined;
  /** The clock in milliseconds (tests move it); default the system clock. */
  readonly now?: (() => number) | undefined;
  /** For key generation; default node's CSPRNG (`randomBytes`). */
  readonly random?: RandomBytes | undefined;
}

/** The settings of ServiceConfig that `createService` takes. */
export type ServiceSettings = Pick<
  ServiceConfig,
  | 'adminToken'
  | 'trustProxy'
  | 'webhookAllowPrivate'
  | 'webhooksPerAuthor'
  | 'stagingHosts'
  | 'publicUrl'
  | 'buyerTransfersPer30Days'
>;

/**
 * `createService`'s options. Every setting was checked by its variable's parser already;
 * createService checks them again at its door (a JavaScript caller's options), so a bug here stops
 * the start rather than misjudging requests. An unset variable is left out, so that createService
 * applies its own default (docs/protocol.md#configuration: the same defaults as the variables').
 */
export function serviceOptions(config: ServiceSettings, ports: ServicePorts): ServiceOptions {
  return {
    store: ports.store,
    rateLimiter: ports.rateLimiter,
    clock: { now: ports.now ?? Date.now },
    signer: ports.signer,
    logger: ports.logger,
    random: ports.random ?? randomBytes,
    ...(ports.console === undefined ? {} : { console: ports.console }),
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    // docs/protocol.md#administration: unset, the admin API (and the console) answers 404.
    ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
    // docs/protocol.md#webhooks: which endpoint URLs POST /admin/webhooks accepts, and how many.
    webhookAllowPrivate: config.webhookAllowPrivate,
    webhooksPerAuthor: config.webhooksPerAuthor,
    // docs/protocol.md#staging-hosts: beyond the built-in ones.
    stagingHosts: config.stagingHosts,
    // docs/protocol.md#buyer-links: unset, links are built on each request's Host, 3 transfers.
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    ...(config.buyerTransfersPer30Days === undefined
      ? {}
      : { buyerTransfersPer30Days: config.buyerTransfersPer30Days }),
  };
}

/**
 * `createWebhookDeliverer`'s options (docs/protocol.md#delivery): the destination rule the admin
 * API applies too, and the attempts in flight at most (on the Koa server, the descriptors kept out
 * of its connections; on Lambda, what one run claims).
 */
export function delivererOptions(
  config: Pick<ServiceConfig, 'webhookAllowPrivate' | 'webhookConcurrency'>,
  ports: Pick<ServicePorts, 'store' | 'logger' | 'now'>,
): WebhookDelivererOptions {
  return {
    store: ports.store,
    clock: { now: ports.now ?? Date.now },
    logger: ports.logger,
    allowPrivate: config.webhookAllowPrivate,
    concurrency: config.webhookConcurrency,
  };
}
