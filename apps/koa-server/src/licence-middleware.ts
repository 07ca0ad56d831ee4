import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describeError } from '@licence/core';
import { isServicePath, routeLabel } from '@licence/service';
import type { Logger, Service } from '@licence/service';
import type { Middleware } from 'koa';
import { applyServiceResponse } from './apply-service-response.js';
import { internalErrorResponse } from './internal-error.js';
import { BodyAbortedError } from './read-body.js';
import { toServiceRequest } from './to-service-request.js';

export interface LicenceMiddlewareOptions {
  /** One line per request (method, route, status, ms) and every fault. */
  readonly logger: Logger;
  /**
   * True: answer every path (unknown ones get the service's 404 problem+json); what createApp
   * does. False (the default): answer only the service's own paths (`/api/licence`,
   * `/api/license`, `/healthz`, `/admin/...`) and pass the rest to the next middleware, so the
   * service can be mounted in an existing Koa app.
   */
  readonly claimAllPaths?: boolean;
  /** Called when the client left mid-body (createApp's option of the same name). */
  readonly onClientAbort?: (socket: Socket) => void;
}

/**
 * The adapter as a Koa middleware, in three steps (CONTRIBUTING.md#architecture):
 * `toServiceRequest`, `service.handle`, `applyServiceResponse`. Nothing here knows an HTTP rule:
 * the service holds them all.
 */
export function licenceMiddleware(service: Service, options: LicenceMiddlewareOptions): Middleware {
  const { logger } = options;
  const claimAll = options.claimAllPaths ?? false;
  const onDrainError = (error: Error): void =>
    logger.debug({ err: error.message }, 'discarding an oversized body failed');
  return async (ctx, next) => {
    if (!claimAll && !isServicePath(ctx.path)) {
      await next();
      return;
    }
    const started = performance.now();
    const route = routeLabel(ctx.path);
    let oversized = false;
    // At debug level only: shows a request that is still being read (a slow body, a shutdown).
    logger.debug({ method: ctx.method, route }, 'request received');
    try {
      const request = await toServiceRequest(ctx, onDrainError);
      oversized = request.body === null;
      const response = await service.handle(request);
      applyServiceResponse(ctx, response);
    } catch (error) {
      if (error instanceof BodyAbortedError) {
        // The client left mid-body: nobody reads an answer; not a fault of ours, and anyone could
        // repeat it at will, so a debug line only (the server counts them: connection-stats.ts).
        logger.debug({ method: ctx.method, route, err: error.message }, 'client aborted the request');
        options.onClientAbort?.(ctx.req.socket);
        ctx.status = 400;
        ctx.body = '';
        return;
      }
      // docs/protocol.md#errors: a fault of ours is a 5xx problem, never a signed refusal, never
      // Koa's HTML page. Only the error's name and message are logged: never the request (it may
      // hold a key).
      logger.error({ method: ctx.method, route, err: describeError(error) }, 'request failed');
      applyServiceResponse(ctx, internalErrorResponse(ctx.path));
    }
    if (oversized) {
      // The rest of the body is being drained (read-body.ts); end the connection with the answer.
      ctx.set('Connection', 'close');
    }
    logger.info(
      { method: ctx.method, route, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100 },
      'request',
    );
  };
}
