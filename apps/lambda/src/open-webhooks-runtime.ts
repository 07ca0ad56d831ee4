import { errorMessage } from '@licence/core';
import { createWebhookDeliverer, delivererOptions } from '@licence/service';
import type { Logger, WebhookDeliverer } from '@licence/service';
import { describeDatabase, openPostgresStore } from '@licence/store-postgres';
import type { WebhooksConfig } from './lambda-config.js';
import { LAMBDA_POOL_MAX, RuntimeOpenError } from './open-lambda-runtime.js';

/** What the scheduled `webhooks` function's container keeps between invocations. */
export interface WebhooksRuntime {
  readonly deliverer: WebhookDeliverer;
  close(): Promise<void>;
}

export interface OpenWebhooksRuntimeOptions {
  readonly logger: Logger;
  /** The deliverer's clock (tests); default Date.now. */
  readonly now?: () => number;
}

/**
 * The PostgreSQL store alone (no rate limiter, no signer, no service: this function answers no
 * request) on a pool as small as the API function's (LAMBDA_POOL_MAX: a round's attempts run
 * concurrently, but each touches the database only to record its outcome, a short write), and the
 * deliverer over it (docs/protocol.md#webhooks). No timer is started: each invocation runs rounds
 * itself (drain-outbox.ts), since Lambda freezes the process between invocations.
 */
export async function openWebhooksRuntime(
  config: WebhooksConfig,
  options: OpenWebhooksRuntimeOptions,
): Promise<WebhooksRuntime> {
  const { logger } = options;
  const database = describeDatabase(config.databaseUrl);
  let store: Awaited<ReturnType<typeof openPostgresStore>>;
  try {
    store = await openPostgresStore({ connectionString: config.databaseUrl, logger, pool: { max: LAMBDA_POOL_MAX } });
  } catch (error) {
    // The store's messages name the database as postgres://host:port/db, never its password.
    throw new RuntimeOpenError(503, [{ variable: 'DATABASE_URL', message: errorMessage(error) }], { cause: error });
  }
  // docs/protocol.md#delivery-on-aws-lambda: each round claims at most the free slots, as on Koa.
  const deliverer = createWebhookDeliverer(delivererOptions(config, { store, logger, now: options.now }));
  logger.info(
    { database, allowPrivate: config.webhookAllowPrivate, concurrency: config.webhookConcurrency },
    'webhook deliverer ready',
  );
  return {
    deliverer,
    close: async () => {
      // Attempts still in flight (an invocation cut short) record their outcome before the pool ends.
      await deliverer.stop();
      await store.close();
    },
  };
}
