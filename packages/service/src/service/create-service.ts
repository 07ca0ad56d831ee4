import { checkVerdictSettings, describeError, parseStagingPatterns, ValidationError } from '@licence/core';
import { createAdminAuthFailures, hashToken } from '../admin/index.js';
import { ADMIN_OPERATIONS, adminRouteName, handleAdmin, isAdminPath } from '../admin/index.js';
import { compileTrustProxy } from '../http/index.js';
import { checkedBuyerTransfers, checkedPublicUrl } from '../config/index.js';
import { BUYER_PAGE_HEADERS } from '../buyer/index.js';
import { buyerRouteLabel, handleBuyer, isBuyerPath } from '../buyer/index.js';
import { adminTokenFault } from '../config/index.js';
import { CONSOLE_HEADERS, checkedConsoleAssets, handleConsole, isConsolePath } from '../console/index.js';
import { FAVICON_PATH, handleFavicon } from '../console/index.js';
import { handleHealth } from './healthz.js';
import { createKeyAdmin } from '../admin/index.js';
import { createNodeVerifier } from '../ports/index.js';
import { HttpError, isHttpError } from '../http/index.js';
import { CORS_HEADERS, handlePublic, PUBLIC_PATHS } from '../verdict/index.js';
import { errorResponse, problemResponse } from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { Service, ServiceOptions, ServiceResponse } from '../http/index.js';
import { DEFAULT_BLOCKED_USER_AGENTS } from '../verdict/index.js';
import { checkedWebhooksPerAuthor } from '../webhooks/index.js';

/** The health check path (docs/protocol.md#request: `GET /healthz`). */
export const HEALTH_PATH = '/healthz';

/**
 * The service: one `handle()` for every request an adapter receives, and the daily `purge()`.
 *
 * Routing, first match: the public endpoint (both spellings, docs/protocol.md#request), `/healthz`,
 * `/admin/...` when an admin token is set, `/console` and below when an admin token and the
 * console's files are given (docs/protocol.md#console), `/buyer/...` always
 * (docs/protocol.md#buyer-links), `/favicon.ico` always (docs/protocol.md#favicon); anything else is
 * a 404 problem (docs/protocol.md#request: unknown path 404, the first check). Every answer but the
 * icon carries `Cache-Control: no-store`; every answer of the public endpoint carries
 * `Access-Control-Allow-Origin: *`, errors included.
 *
 * `handle()` never rejects: a fault becomes a 5xx problem and an error log line that names the
 * route, never the path (an admin path may hold a key, a buyer path a token) nor the body.
 *
 * Options are checked here, once: a bad `trustProxy` or an admin token that breaks the rule of
 * LICENCE_ADMIN_TOKEN throws a ValidationError so that a server refuses to start rather than
 * misjudge every request; so does a `console` without its page, a `webhookAllowPrivate` that is
 * not a boolean, a `stagingHosts` entry that is no host pattern, and verdict `settings` that are
 * not whole numbers of seconds (core's `checkVerdictSettings`: the same rule and message
 * decideVerdict would give on every request).
 */
export function createService(options: ServiceOptions): Service {
  const context = serviceContext(options);
  const consoleAssets = checkedConsoleAssets(options.console);
  // docs/protocol.md#administration: the operations' table (CONTRIBUTING.md#architecture).
  const adminOperations = options.adminOperations ?? ADMIN_OPERATIONS;
  // The operator's: the daily purge. Every KeyAdmin made from `context` (this one, and one per admin
  // request in admin/routes.ts) takes its `webhookAllowPrivate`.
  const admin = createKeyAdmin(context);
  const authFailures = createAdminAuthFailures();
  const { logger } = context;

  /** A caught error as its answer; faults are logged (without the path: it may hold a key). */
  const answerError = (error: unknown, route: string, extra: Readonly<Record<string, string>>): ServiceResponse => {
    const httpError = isHttpError(error)
      ? error
      : new HttpError('internal-error', 'an internal error occurred', { cause: error });
    if (httpError.status >= 500) {
      logger.error({ route, status: httpError.status, err: describeError(httpError) }, 'request failed');
    }
    return errorResponse(httpError, extra);
  };
  /** A route's answer, or its error's, named `route` in the log and answered with `extra` headers. */
  const guarded = async (
    run: () => ServiceResponse | Promise<ServiceResponse>,
    route: string,
    extra: Readonly<Record<string, string>>,
  ): Promise<ServiceResponse> => {
    try {
      return await run();
    } catch (error) {
      return answerError(error, route, extra);
    }
  };

  return {
    async handle(request) {
      const { path } = request;
      if (PUBLIC_PATHS.includes(path)) {
        return guarded(() => handlePublic(context, request), 'POST /api/licence', CORS_HEADERS);
      }
      if (path === HEALTH_PATH) return guarded(() => handleHealth(context, request), 'GET /healthz', {});
      if (context.adminTokenHash !== null && isAdminPath(path)) {
        return guarded(
          () => handleAdmin(context, authFailures, request, adminOperations),
          adminRouteName(request, adminOperations),
          {},
        );
      }
      // docs/protocol.md#console: with the admin API only, which is all the page talks to.
      if (context.adminTokenHash !== null && consoleAssets !== null && isConsolePath(path)) {
        return guarded(() => handleConsole(consoleAssets, request), 'GET /console', CONSOLE_HEADERS);
      }
      // docs/protocol.md#buyer-links: opened by the link itself, admin API on or off.
      if (isBuyerPath(path)) {
        const route = `${request.method} ${buyerRouteLabel(path)}`;
        return guarded(() => handleBuyer(context, request), route, BUYER_PAGE_HEADERS);
      }
      if (path === FAVICON_PATH) return guarded(() => handleFavicon(request), 'GET /favicon.ico', {});
      return problemResponse('not-found', 'no such path');
    },

    async purge() {
      return (await admin.purge()).erased;
    },
  };
}

/** The options, each checked once here at the door, as what every wing is handed. */
function serviceContext(options: ServiceOptions): ServiceContext {
  return {
    store: options.store,
    rateLimiter: options.rateLimiter,
    clock: options.clock,
    signer: options.signer,
    verifier: createNodeVerifier(options.signer.publicKey),
    logger: options.logger,
    random: options.random,
    // docs/protocol.md#verdict: checked here once, so that decideVerdict takes them as they are on
    // every request (a bad value stops the start instead of answering each verdict with a 500).
    settings: checkVerdictSettings(options.settings),
    trust: compileTrustProxy(options.trustProxy),
    blockedUserAgents: options.blockedUserAgents ?? DEFAULT_BLOCKED_USER_AGENTS,
    adminTokenHash: checkedAdminToken(options.adminToken),
    webhookAllowPrivate: checkedAllowPrivate(options.webhookAllowPrivate),
    webhooksPerAuthor: checkedWebhooksPerAuthor(options.webhooksPerAuthor),
    stagingHosts: checkedStagingHosts(options.stagingHosts),
    publicUrl: checkedPublicUrl(options.publicUrl),
    buyerTransfersPer30Days: checkedBuyerTransfers(options.buyerTransfersPer30Days),
  };
}

/**
 * ServiceOptions `adminToken` as its hash, or null when the admin API is off
 * (docs/protocol.md#administration: off unless a token is set; an empty token is no token). A token
 * is held to the rule of LICENCE_ADMIN_TOKEN (`adminTokenFault`), and the fault never shows it.
 */
function checkedAdminToken(token: unknown): Buffer | null {
  if (token === undefined || token === '') return null;
  if (typeof token !== 'string') throw new ValidationError('adminToken', 'adminToken: expected a string');
  const fault = adminTokenFault(token);
  if (fault !== null) throw new ValidationError('adminToken', `adminToken: ${fault} (value not shown)`);
  return hashToken(token);
}

/** ServiceOptions `webhookAllowPrivate`: a boolean or absent (false), so a stray "0" is not true. */
function checkedAllowPrivate(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new ValidationError('webhookAllowPrivate', 'webhookAllowPrivate: expected a boolean');
  }
  return value;
}

/**
 * ServiceOptions `stagingHosts` (docs/protocol.md#staging-hosts): an array of host patterns, read by
 * core's rule for a list (`parseStagingPatterns`: at most 50, each normalised and kept once), as
 * LICENCE_STAGING_HOSTS is; absent is none.
 */
function checkedStagingHosts(value: unknown): readonly string[] {
  return value === undefined ? [] : parseStagingPatterns('stagingHosts', value);
}
