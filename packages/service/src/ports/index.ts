// ports/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { DAY_SECONDS, utcDay } from './activity-day.js';
export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export type { MemoryRateLimiter } from './memory-rate-limiter.js';
export { randomBytes } from './node-random.js';
export { createNodeSigner } from './node-signer.js';
export { createNodeVerifier } from './node-verifier.js';
export type { Verifier } from './node-verifier.js';
export { requireKeyId } from './require-key-id.js';
export { SchemaVersionError, pendingMigrations, refuseNewerSchema } from './schema-version.js';
export { retryAfterSeconds, slidingWindow } from './sliding-window.js';
export type { ActivityCount, AuthorRecord, AuthorTokenRecord, BoundDomain } from './store-port.js';
export type { ClaimedWebhookDelivery, Clock, Installation, Logger, NewKey } from './store-port.js';
export type { NewWebhookEvent, ProductRecord, RateLimiter, RequestLogEntry, Signer } from './store-port.js';
export type { Store, StoredKey, VerdictOutcome, WebhookAttemptOutcome } from './store-port.js';
export type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookDeliveryStatus } from './store-port.js';
export type { WebhookEndpointRecord } from './store-port.js';
export { storedColumn } from './stored-column.js';
