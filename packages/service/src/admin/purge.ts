import { formatQuand } from '@licence/core';
import { DAY_SECONDS } from '../ports/index.js';
import { callOrStoreUnavailable } from './keys.js';
import type { AdminContext } from './scope.js';
import { twelveMonthsBefore } from './retention.js';
import { nowSeconds } from '../http/index.js';

/**
 * docs/protocol.md#webhooks: webhook events and their deliveries are kept 30 days. Long enough for
 * the retry schedule (3 days 13 h) and for a shop to read the delivery log after a long outage;
 * short because a body may hold a key (`data.cle` of a regeneration or transfer). An event with a
 * delivery still pending is kept until it is delivered or failed.
 */
export const WEBHOOK_RETENTION_SECONDS = 30 * DAY_SECONDS;

/**
 * The daily purge. docs/protocol.md#privacy: deletes the request-log entries logged more than
 * twelve months ago, and with them their client IPs; `erased` counts the entries deleted, each with
 * its IP. docs/protocol.md#webhooks: deletes the webhook events older than 30 days with their
 * deliveries (counted in the log line only). One log line says both. The operator's alone (docs/protocol.md#authors; its declared scope, operations-log.ts): it
 * reaches every author's log.
 */
export async function purge(context: AdminContext): Promise<{ readonly erased: number }> {
  const { store, clock, logger } = context;
  const before = twelveMonthsBefore(clock.now());
  const erased = await callOrStoreUnavailable(() => store.purgeRequestLog(before));
  const eventsBefore = nowSeconds(clock) - WEBHOOK_RETENTION_SECONDS;
  const events = await callOrStoreUnavailable(() => store.purgeWebhookEvents(eventsBefore));
  // One purge, one line: both counts and both horizons.
  logger.info(
    {
      action: 'purge',
      erased,
      before: formatQuand(before),
      webhookEvents: events,
      webhookEventsBefore: formatQuand(eventsBefore),
    },
    'purge: request log entries (with their client IPs) and webhook events (with their deliveries) past retention deleted',
  );
  return { erased };
}
