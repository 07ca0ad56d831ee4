import { describeError, ValidationError } from '@licence/core';
import { createAdminAuthFailures, hashToken } from './admin-auth.js';
import { adminRouteName, handleAdmin, isAdminPath } from './admin-routes.js';
import { compileTrustProxy } from './client-ip.js';
import { adminTokenFault } from './config-values.js';
import { CONSOLE_HEADERS, checkedConsoleAssets, handleConsole, isConsolePath } from './console-route.js';
import { handleHealth } from './healthz.js';
import { createKeyAdmin } from './key-admin.js';
import { HttpError, isHttpError } from './problem.js';
import { CORS_HEADERS, handlePublic, PUBLIC_PATHS } from './public-endpoint.js';
import { errorResponse, problemResponse } from './response.js';
import type { ServiceContext } from './service-context.js';
import type { Service, ServiceOptions, ServiceResponse } from './service-types.js';
import { DEFAULT_BLOCKED_USER_AGENTS } from './user-agents.js';

/** The health check path (docs/protocol.md#request: `GET /healthz`). */
export const HEALTH_PATH = '/healthz';

/**
 * The service: one `handle()` for every request an adapter receives, and the daily `purge()`.
 *
 * Routing, first match: the public endpoint (both spellings, docs/protocol.md#request), `/healthz`,
 * `/admin/...` when an admin token is set, `/console` and below when an admin token and the
 * console's files are given (docs/protocol.md#console); anything else is a 404 problem
 * (docs/protocol.md#request: unknown path 404, the first check). Every answer carries
 * `Cache-Control: no-store`; every answer of the public endpoint carries
 * `Access-Control-Allow-Origin: *`, errors included.
 *
 * `handle()` never rejects: a fault becomes a 5xx problem and an error log line that names the
 * route, never the path (an admin path may hold a key) nor the body.
 *
 * Options are checked here, once: a bad `trustProxy` or an admin token that breaks the rule of
 * LICENCE_ADMIN_TOKEN throws a ValidationError so that a server refuses to start rather than
 * misjudge every request; so does a `console` without its page, and a `webhookAllowPrivate` that is
 * not a boolean.
 */
export function createService(options: ServiceOptions): Service {
  const context: ServiceContext = {
    store: options.store,
    rateLimiter: options.rateLimiter,
    clock: options.clock,
    signer: options.signer,
    logger: options.logger,
    random: options.random,
    settings: options.settings,
    trust: compileTrustProxy(options.trustProxy),
    blockedUserAgents: options.blockedUserAgents ?? DEFAULT_BLOCKED_USER_AGENTS,
    adminTokenHash: checkedAdminToken(options.adminToken),
    webhookAllowPrivate: checkedAllowPrivate(options.webhookAllowPrivate),
  };
  const consoleAssets = checkedConsoleAssets(options.console);
  // The operator's: the daily purge. Every KeyAdmin made from `context` (this one, and one per admin
  // request in admin-routes.ts) takes its `webhookAllowPrivate`.
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

  return {
    async handle(request) {
      const { path } = request;
      if (PUBLIC_PATHS.includes(path)) {
        try {
          return await handlePublic(context, request);
        } catch (error) {
          return answerError(error, 'POST /api/licence', CORS_HEADERS);
        }
      }
      if (path === HEALTH_PATH) {
        try {
          return await handleHealth(context, request);
        } catch (error) {
          return answerError(error, 'GET /healthz', {});
        }
      }
      if (context.adminTokenHash !== null && isAdminPath(path)) {
        try {
          return await handleAdmin(context, authFailures, request);
        } catch (error) {
          return answerError(error, adminRouteName(request), {});
        }
      }
      // docs/protocol.md#console: with the admin API only, which is all the page talks to.
      if (context.adminTokenHash !== null && consoleAssets !== null && isConsolePath(path)) {
        try {
          return handleConsole(consoleAssets, request);
        } catch (error) {
          return answerError(error, 'GET /console', CONSOLE_HEADERS);
        }
      }
      return problemResponse('not-found', 'no such path');
    },

    async purge() {
      return (await admin.purge()).erased;
    },
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
