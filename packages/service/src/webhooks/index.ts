// webhooks/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export {
  MAX_WEBHOOK_CONCURRENCY,
  WEBHOOK_BATCH,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_INTERVAL_MS,
  WEBHOOK_LEASE_MARGIN_SECONDS,
  createWebhookDeliverer,
} from './webhook-deliverer.js';
export type { WebhookDeliverer, WebhookDelivererOptions } from './webhook-deliverer.js';
export {
  MAX_WEBHOOK_URL_LENGTH,
  REFUSED_WEBHOOK_RANGES,
  WEBHOOK_PRIVATE_ADDRESS,
  WebhookAddressError,
  checkWebhookUrl,
  isPublicAddress,
  refusedRange,
  safeLookup,
} from './webhook-destination.js';
export type { ResolveAll, WebhookUrlOptions } from './webhook-destination.js';
export {
  domainBoundEvent,
  keyIssuedEvent,
  keyReplacedEvent,
  keyRevokedEvent,
  verdictRefusedEvent,
} from './webhook-events.js';
export {
  WEBHOOK_DELIVERY_PREFIX,
  WEBHOOK_ENDPOINT_PREFIX,
  WEBHOOK_EVENT_PREFIX,
  newWebhookEndpointId,
  newWebhookEventId,
  webhookDeliveryId,
} from './webhook-ids.js';
export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_INITIATORS,
  domainBoundData,
  keyIssuedData,
  keyReplacedData,
  keyRevokedData,
  verdictRefusedData,
  webhookBody,
} from './webhook-payload.js';
export type {
  DomainBoundData,
  KeyIssuedData,
  KeyReplacedData,
  KeyRevokedData,
  VerdictRefusedData,
  WebhookEventData,
  WebhookEventType,
  WebhookInitiator,
} from './webhook-payload.js';
export { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR, checkedWebhooksPerAuthor } from './webhook-quota.js';
export {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_JITTER,
  WEBHOOK_RETRY_DELAYS,
  nextAttemptDelay,
  webhookJitter,
} from './webhook-schedule.js';
export type { DelayOptions } from './webhook-schedule.js';
export { WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX, newWebhookSecret, parseWebhookSecret } from './webhook-secret.js';
export { signWebhook, webhookSignature } from './webhook-signature.js';
export type { WebhookHeaders, WebhookMessage } from './webhook-signature.js';
export { WEBHOOK_TIMEOUT_MS } from './webhook-transport.js';
