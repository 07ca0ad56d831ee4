import type { Socket } from 'node:net';
import { describeError, errorCode } from '@licence/core';
import type { Logger, Service } from '@licence/service';
import Koa from 'koa';
import { applyServiceResponse } from './apply-service-response.js';
import { isClientGone } from './client-gone.js';
import { internalErrorResponse } from './internal-error.js';
import { licenceMiddleware } from './licence-middleware.js';
import { protocolProblem } from './protocol-checks.js';

export interface CreateAppOptions {
  readonly service: Service;
  readonly logger: Logger;
  /**
   * Called when a client left before its answer (a reset, a body cut short): not an error, so it
   * is logged at debug only; the server counts these (a `connection stats` line). It may be called
   * more than once for one connection.
   */
  readonly onClientAbort?: (socket: Socket) => void;
}

/**
 * The Koa app of the licence service: every path goes to the service (unknown ones get its 404
 * problem+json). To mount the service in an existing Koa app instead, use
 * `licenceMiddleware(service, {logger})`.
 */
export function createApp(options: CreateAppOptions): Koa {
  const { logger, onClientAbort } = options;
  const app = new Koa();
  // Koa would print errors with console.error; they go to the structured log instead.
  app.silent = true;
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    if (isClientGone(error)) {
      logger.debug({ code: errorCode(error) ?? 'unknown' }, 'client went away');
      if (ctx !== undefined) onClientAbort?.(ctx.req.socket);
      return;
    }
    logger.error({ err: describeError(error) }, 'koa error');
  });
  // A boundary in front of everything: whatever throws, the client gets a problem+json 500
  // (docs/protocol.md#errors), never Koa's default text or HTML error page.
  app.use(async (ctx, next) => {
    const refused = protocolProblem(ctx.req);
    if (refused !== undefined) {
      applyServiceResponse(ctx, refused);
      // The request's framing is not to be trusted: no second request on this connection.
      ctx.set('Connection', 'close');
      return;
    }
    try {
      await next();
    } catch (error) {
      logger.error({ method: ctx.method, err: describeError(error) }, 'unhandled error');
      applyServiceResponse(ctx, internalErrorResponse(ctx.path));
    }
  });
  app.use(
    licenceMiddleware(options.service, {
      logger,
      claimAllPaths: true,
      ...(onClientAbort === undefined ? {} : { onClientAbort }),
    }),
  );
  return app;
}
