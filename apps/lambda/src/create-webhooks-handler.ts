import { performance } from 'node:perf_hooks';
import { describeError, errorMessage } from '@licence/core';
import type { Environment, Logger } from '@licence/service';
import type { Context } from 'aws-lambda';
import { DRAIN_MARGIN_MS, drainOutbox } from './drain-outbox.js';
import { createJsonLogger } from './json-logger.js';
import { loadWebhooksConfig, startLogLevel } from './lambda-config.js';
import { logRuntimeOpenError, RuntimeOpenError } from './open-lambda-runtime.js';
import { openWebhooksRuntime } from './open-webhooks-runtime.js';
import type { WebhooksRuntime } from './open-webhooks-runtime.js';
import { holdRuntime } from './runtime-holder.js';

export interface CreateWebhooksHandlerOptions {
  /** DATABASE_URL, LICENCE_WEBHOOK_ALLOW_PRIVATE and LOG_LEVEL (`loadWebhooksConfig`), read on the first invocation. */
  readonly env: Environment;
  readonly logger?: Logger;
  /** The deliverer's clock (tests); default Date.now. */
  readonly now?: () => number;
}

/** The scheduled drain's answer: the delivery attempts it made, successful or not. */
export interface WebhooksResult {
  readonly attempts: number;
}

/** What Lambda hands the handler and the drain reads: the request id, and the time left. */
export type WebhooksContext = Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>;

export interface WebhooksHandler {
  /**
   * The event is not read: the EventBridge schedule's (template.yaml, `rate(1 minute)`) and a
   * manual `aws lambda invoke` (drain now) mean the same. Without a context (a local call), the
   * invocation has `WEBHOOKS_LOCAL_BUDGET_MS`.
   */
  (event: unknown, context?: Partial<WebhooksContext>): Promise<WebhooksResult>;
  /** Ends the container's pool, after the attempts in flight (tests and local use). */
  close(): Promise<void>;
}

/** The time a call without Lambda's context gets: the template's Timeout. */
export const WEBHOOKS_LOCAL_BUDGET_MS = 60_000;

/**
 * docs/protocol.md#webhooks on AWS Lambda: the `webhooks` export, run every minute by its schedule.
 * Its container opens the store and the deliverer on the first invocation and keeps them
 * (runtime-holder.ts); each invocation runs deliverer rounds until nothing is due or too little
 * time is left for another (drain-outbox.ts). Two runs that overlap (a slow one and the next
 * minute's) never send a delivery twice: the store's claim is atomic and leased.
 *
 * A runtime that cannot open REJECTS the invocation (after its log lines, naming the variable), so
 * the function's Errors metric and a CloudWatch alarm see it; the next minute's run tries again.
 */
export function createWebhooksHandler(options: CreateWebhooksHandlerOptions): WebhooksHandler {
  const logger = options.logger ?? createJsonLogger({ level: startLogLevel(options.env) });
  const held = holdRuntime(() => open(options, logger));
  const handler = async (_event: unknown, context?: Partial<WebhooksContext>): Promise<WebhooksResult> => {
    const requestId = context?.awsRequestId;
    const started = performance.now();
    const remainingMs =
      context?.getRemainingTimeInMillis?.bind(context) ??
      (() => WEBHOOKS_LOCAL_BUDGET_MS - (performance.now() - started));
    let runtime: WebhooksRuntime;
    try {
      runtime = await held.get();
    } catch (error) {
      if (error instanceof RuntimeOpenError) logRuntimeOpenError(logger, error, requestId);
      else logger.error({ requestId, err: describeError(error) }, 'webhooks failed');
      throw new Error(`webhooks failed: ${errorMessage(error)}`, { cause: error });
    }
    const { attempts, rounds } = await drainOutbox({
      runOnce: () => runtime.deliverer.runOnce(),
      remainingMs,
      roundBudgetMs: runtime.deliverer.timeoutMs + DRAIN_MARGIN_MS,
    });
    // A quiet minute logs at debug: 1,440 lines a day saying "nothing" would only cost CloudWatch
    // storage (Lambda's own START/REPORT lines show the schedule runs).
    const ms = Math.round((performance.now() - started) * 100) / 100;
    if (attempts > 0) logger.info({ requestId, attempts, rounds, ms }, 'webhooks');
    else logger.debug({ requestId, attempts, rounds, ms }, 'webhooks');
    return { attempts };
  };
  return Object.assign(handler, { close: held.close });
}

async function open(options: CreateWebhooksHandlerOptions, logger: Logger): Promise<WebhooksRuntime> {
  const loaded = loadWebhooksConfig(options.env);
  if (!loaded.ok) throw new RuntimeOpenError(500, loaded.errors);
  return openWebhooksRuntime(loaded.value, {
    logger,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
