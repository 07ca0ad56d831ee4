import { performance } from 'node:perf_hooks';
import { describeError, errorMessage } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { routeLabel } from '@licence/service';
import type { Environment, Logger, Service } from '@licence/service';
import type { Context } from 'aws-lambda';
import { faultResponse, notAnHttpEventResponse } from './fault-response.js';
import { createJsonLogger } from './json-logger.js';
import { loadLambdaConfig, startLogLevel } from './lambda-config.js';
import { classifyEvent, isScheduledEvent } from './lambda-event.js';
import type { ClassifiedEvent } from './lambda-event.js';
import { logRuntimeOpenError, openLambdaRuntime, RuntimeOpenError } from './open-lambda-runtime.js';
import { holdRuntime } from './runtime-holder.js';
import type { LambdaRuntime } from './open-lambda-runtime.js';
import { toLambdaResult } from './to-lambda-result.js';
import type { LambdaHttpResult } from './to-lambda-result.js';
import { toServiceRequest } from './to-service-request.js';

/**
 * The environment of docs/protocol.md#configuration, read on the first invocation (the default
 * `handler` passes process.env). `now` and `random` exist for tests (a clock the test moves).
 */
export interface LambdaEnvironmentOptions {
  readonly env: Environment;
  readonly logger?: Logger;
  readonly now?: () => number;
  readonly random?: RandomBytes;
  /** Where a relative LICENCE_SIGNING_KEY_FILE is found; default process.cwd() (/var/task on Lambda). */
  readonly cwd?: string;
}

/** A service built by the caller (tests, or an app that wires its own store). */
export interface LambdaServiceOptions {
  readonly service: Service;
  readonly logger?: Logger;
}

export type CreateLambdaHandlerOptions = LambdaServiceOptions | LambdaEnvironmentOptions;

/** The daily purge's answer to its schedule (docs/protocol.md#privacy). */
export interface PurgeResult {
  readonly erased: number;
}

export interface LambdaHandler {
  /**
   * `event` is whatever JSON Lambda hands over: an HTTP event (`LambdaHttpEvent`: REST, HTTP API,
   * Function URL, ALB) or the daily `ScheduledEvent`, told apart at run time (lambda-event.ts);
   * anything else is answered 400, never a crash.
   */
  (event: unknown, context?: Pick<Context, 'awsRequestId'>): Promise<LambdaHttpResult | PurgeResult>;
  /** Ends the container's pool (tests and the local runner; Lambda itself just freezes the process). */
  close(): Promise<void>;
}

/**
 * The Lambda handler, in three small steps per request (CONTRIBUTING.md#architecture, as
 * hono's adapter does): `toServiceRequest`, `service.handle`, `toLambdaResult`.
 *
 * The runtime (signer, PostgreSQL pool, service) is opened once per container, on the first
 * invocation, and reused by every later one (runtime-holder.ts). When it cannot open, that
 * invocation answers a 5xx problem and the log names the variable; the NEXT invocation tries again.
 */
export function createLambdaHandler(options: CreateLambdaHandlerOptions): LambdaHandler {
  const logger = options.logger ?? defaultLogger(options);
  const held = holdRuntime<Pick<LambdaRuntime, 'service' | 'close'>>(() =>
    'service' in options
      ? Promise.resolve({ service: options.service, close: () => Promise.resolve() })
      : open(options, logger),
  );
  const runtime = held.get;

  const handler = async (
    event: unknown,
    context?: Pick<Context, 'awsRequestId'>,
  ): Promise<LambdaHttpResult | PurgeResult> => {
    const requestId = context?.awsRequestId;
    if (isScheduledEvent(event)) return purge(runtime, logger, requestId);
    const started = performance.now();
    const classified = classifyEvent(event);
    if (classified === null) {
      logger.warn({ requestId }, 'not an HTTP event of API Gateway, a Function URL or an ALB: answered 400');
      const response = notAnHttpEventResponse();
      return {
        statusCode: response.status,
        headers: { ...response.headers },
        body: response.body,
        isBase64Encoded: false,
      };
    }
    const { result, method, route } = await answer(classified, runtime, logger, requestId);
    logger.info(
      {
        method,
        route,
        status: result.statusCode,
        ms: Math.round((performance.now() - started) * 100) / 100,
        requestId,
      },
      'request',
    );
    return result;
  };

  return Object.assign(handler, { close: held.close });
}

async function answer(
  classified: ClassifiedEvent,
  runtime: () => Promise<Pick<LambdaRuntime, 'service'>>,
  logger: Logger,
  requestId: string | undefined,
): Promise<{ readonly result: LambdaHttpResult; readonly method: string; readonly route: string }> {
  let method = '';
  let route = 'other';
  let path = '';
  try {
    const request = toServiceRequest(classified);
    ({ method, path } = request);
    route = routeLabel(path);
    let service: Service;
    try {
      ({ service } = await runtime());
    } catch (error) {
      if (!(error instanceof RuntimeOpenError)) throw error;
      // One line per cause, each naming its variable (docs/protocol.md#configuration), on every
      // invocation until fixed.
      logRuntimeOpenError(logger, error, requestId);
      return { result: toLambdaResult(classified, faultResponse(error.status, path)), method, route };
    }
    const response = await service.handle(request);
    return { result: toLambdaResult(classified, response), method, route };
  } catch (error) {
    // docs/protocol.md#errors: a fault of ours is a 5xx problem, never a signed refusal. Only the
    // error's name and message are logged, never the event (it may hold a key).
    logger.error({ requestId, method, route, err: describeError(error) }, 'request failed');
    return { result: toLambdaResult(classified, faultResponse(500, path)), method, route };
  }
}

async function open(options: LambdaEnvironmentOptions, logger: Logger): Promise<LambdaRuntime> {
  const loaded = loadLambdaConfig(options.env, options.cwd ?? process.cwd());
  if (!loaded.ok) throw new RuntimeOpenError(500, loaded.errors);
  return openLambdaRuntime(loaded.value, {
    logger,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.random === undefined ? {} : { random: options.random }),
  });
}

/**
 * docs/protocol.md#privacy: erase client addresses older than twelve months, on the daily schedule.
 * A failure REJECTS (after its log lines): the invocation is then marked failed, so EventBridge
 * retries it and a CloudWatch alarm on the function's errors sees it.
 */
async function purge(
  runtime: () => Promise<Pick<LambdaRuntime, 'service'>>,
  logger: Logger,
  requestId: string | undefined,
): Promise<PurgeResult> {
  try {
    const erased = await (await runtime()).service.purge();
    logger.info({ requestId, erased }, 'purge');
    return { erased };
  } catch (error) {
    if (error instanceof RuntimeOpenError) logRuntimeOpenError(logger, error, requestId);
    else logger.error({ requestId, err: describeError(error) }, 'purge failed');
    throw new Error(`purge failed: ${errorMessage(error)}`, { cause: error });
  }
}

/** The logger when none is given: JSON lines at LOG_LEVEL (a bad LOG_LEVEL is reported by the config, at `info` meanwhile). */
function defaultLogger(options: CreateLambdaHandlerOptions): Logger {
  return createJsonLogger({ level: 'env' in options ? startLogLevel(options.env) : 'info' });
}
