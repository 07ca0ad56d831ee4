import { formatQuand } from '@licence/core';
import type { WebhookAttemptView, WebhookDeliveryView, WebhookView } from './types.js';
import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../ports/index.js';

/**
 * Webhook endpoints and their deliveries as the admin API shows them (docs/protocol.md#webhooks):
 * ISO 8601 times, named fields only. Never a secret: the store does not hand them out, but for the
 * one answer that creates or rotates it.
 */

export const webhookView = (endpoint: WebhookEndpointRecord): WebhookView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: [...endpoint.events],
  author: endpoint.author,
  created: formatQuand(endpoint.createdAt),
});

export const webhookAttemptView = (attempt: WebhookAttemptRecord): WebhookAttemptView => ({
  at: formatQuand(attempt.at),
  status: attempt.status,
  error: attempt.error,
  durationMs: attempt.durationMs,
});

export const webhookDeliveryView = (delivery: WebhookDeliveryRecord): WebhookDeliveryView => ({
  id: delivery.id,
  event: delivery.eventId,
  type: delivery.type,
  created: formatQuand(delivery.createdAt),
  status: delivery.status,
  nextAttempt: delivery.nextAttemptAt === null ? null : formatQuand(delivery.nextAttemptAt),
  attempts: delivery.attempts.map(webhookAttemptView),
});

/**
 * What a log line may say of an endpoint's URL: its origin (`https://shop.example:8443`), never its
 * path or query, where a shop may have put a token (docs/protocol.md#webhooks).
 */
export function urlOrigin(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'an unreadable URL';
}
