import { describeError } from '@licence/core';
import type { Logger, Service } from '@licence/service';
import Koa from 'koa';
import { applyServiceResponse } from './apply-service-response.js';
import { internalErrorResponse } from './internal-error.js';
import { licenceMiddleware } from './licence-middleware.js';

export interface CreateAppOptions {
  readonly service: Service;
  readonly logger: Logger;
}

/**
 * The Koa app of the licence service: every path goes to the service (unknown ones get its 404
 * problem+json). To mount the service in an existing Koa app instead, use
 * `licenceMiddleware(service, {logger})`.
 */
export function createApp(options: CreateAppOptions): Koa {
  const { logger } = options;
  const app = new Koa();
  // Koa would print errors with console.error; they go to the structured log instead.
  app.silent = true;
  app.on('error', (error: unknown) => {
    logger.error({ err: describeError(error) }, 'koa error');
  });
  // A boundary in front of everything: whatever throws, the client gets a problem+json 500
  // (docs/protocol.md#errors), never Koa's default text or HTML error page.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      logger.error({ method: ctx.method, err: describeError(error) }, 'unhandled error');
      applyServiceResponse(ctx, internalErrorResponse());
    }
  });
  app.use(licenceMiddleware(options.service, { logger, claimAllPaths: true }));
  return app;
}
