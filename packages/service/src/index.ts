// @licence/service: HTTP-agnostic request handling and key administration. This file only
// re-exports what the apps, the stores and the console use, each named in README.md's API table.

// The service (docs/protocol.md#request, #rate-limit, #administration)
export { createService, HEALTH_PATH } from './service/index.js';
export type { Service, ServiceOptions, ServiceRequest, ServiceResponse } from './http/index.js';
export { CORS_HEADERS, PUBLIC_PATHS } from './verdict/index.js';
// Errors (RFC 9457): the problem answer an adapter sends itself (docs/protocol.md#errors)
export { problemResponse } from './http/index.js';
// What every adapter logs and reads alike (docs/protocol.md#privacy, #limits)
export { bodyLimitFor, isServicePath, LOG_REDACTION, redactLogFields, routeLabel } from './service/index.js';

// The admin operations, declared once (docs/protocol.md#administration, CONTRIBUTING.md#architecture):
// the table the HTTP routes, the CLI, the console's client and the OpenAPI document come from
export { ADMIN_OPERATIONS, createKeyAdmin, isMistake, withAdminOperations } from './admin/index.js';
export type { AdminArguments, AdminOutput, KeyAdmin } from './admin/index.js';
export type { AdminCommand, AdminOperation, AdminOperations, CommandAction } from './admin/index.js';
export { AdminError, isAdminError } from './admin/index.js';

// Configuration (docs/protocol.md#configuration): one path from the environment to the options
export { delivererOptions, readServiceConfig, serviceOptions } from './config/index.js';
export type { Environment, Parsed, ServiceConfig } from './config/index.js';
// An app's own variables, read the way the shared ones are
export { configErrorLine, invalid, parsed, readVariable } from './config/index.js';
// A signing seed file (docs/protocol.md#signature): LICENCE_SIGNING_KEY_FILE, and the Koa server's embedded key
export { loadSeedFile } from './config/index.js';

// Webhooks (docs/protocol.md#webhooks): the deliverer, the event types, and the delivery id every store names
export { createWebhookDeliverer, WEBHOOK_EVENT_TYPES, webhookDeliveryId } from './webhooks/index.js';
export type { WebhookDeliverer, WebhookEventType } from './webhooks/index.js';

// Ports and their in-process implementations. `Store` carries the port's record types in its
// namespace (Store.StoredKey, Store.NewKey, Store.ProductChange, ...)
export type { Clock, Logger, RateLimiter, Signer, Store } from './ports/index.js';
export { createMemoryRateLimiter, createNodeSigner, randomBytes } from './ports/index.js';

// What the SQLite and PostgreSQL stores share (docs/protocol.md#storage, #rate-limit)
export { pendingMigrations, refuseNewerSchema, SchemaVersionError, storedColumn } from './ports/index.js';
export { requireKeyId, retryAfterSeconds, slidingWindow, utcDay } from './ports/index.js';
