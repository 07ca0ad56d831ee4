// webhooks/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { MAX_WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY, createWebhookDeliverer } from './webhook-deliverer.js';
export type { WebhookDeliverer, WebhookDelivererOptions } from './webhook-deliverer.js';
export { checkWebhookUrl } from './webhook-destination.js';
export { domainBoundEvent, keyIssuedEvent, keyReplacedEvent, keyRevokedEvent } from './webhook-events.js';
export { verdictRefusedEvent } from './webhook-events.js';
export { WEBHOOK_DELIVERY_PREFIX, WEBHOOK_ENDPOINT_PREFIX, newWebhookEndpointId } from './webhook-ids.js';
export { newWebhookEventId, webhookDeliveryId } from './webhook-ids.js';
export { WEBHOOK_EVENT_TYPES, keyRevokedData, webhookBody } from './webhook-payload.js';
export type { WebhookEventType, WebhookInitiator } from './webhook-payload.js';
export { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR, checkedWebhooksPerAuthor } from './webhook-quota.js';
export { newWebhookSecret, parseWebhookSecret } from './webhook-secret.js';
