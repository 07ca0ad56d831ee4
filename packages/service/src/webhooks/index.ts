// webhooks/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { MAX_WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY, createWebhookDeliverer } from './deliverer.js';
export type { WebhookDeliverer, WebhookDelivererOptions } from './deliverer.js';
export { checkWebhookUrl } from './destination.js';
export { domainBoundEvent, keyIssuedEvent, keyReplacedEvent, keyRevokedEvent } from './events.js';
export { verdictRefusedEvent } from './events.js';
export { WEBHOOK_DELIVERY_PREFIX, WEBHOOK_ENDPOINT_PREFIX, newWebhookEndpointId } from './ids.js';
export { newWebhookEventId, webhookDeliveryId } from './ids.js';
export { WEBHOOK_EVENT_TYPES, keyRevokedData, webhookBody } from './payload.js';
export type { WebhookEventType, WebhookInitiator } from './payload.js';
export { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR, checkedWebhooksPerAuthor } from './quota.js';
export { newWebhookSecret, parseWebhookSecret } from './secret.js';
