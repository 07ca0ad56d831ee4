// @licence/service: HTTP-agnostic request handling and key administration. This file only re-exports.

// The service (docs/protocol.md#request, #rate-limit, #administration)
export { createService, HEALTH_PATH } from './service/index.js';
export type { Service, ServiceOptions, ServiceRequest, ServiceResponse } from './http/index.js';
export { CORS_HEADERS, PUBLIC_PATHS } from './verdict/index.js';

// The console (docs/protocol.md#console)
export { CONSOLE_HEADERS, CONSOLE_PATH, isConsolePath } from './console/index.js';

// Buyer links (docs/protocol.md#buyer-links)
export {
  BUYER_PAGE_ROUTE,
  BUYER_PATH,
  BUYER_STYLESHEET_PATH,
  BUYER_TRANSFER_ROUTE,
  buyerRouteLabel,
  isBuyerPath,
} from './buyer/index.js';
export { BUYER_PAGE_HEADERS } from './buyer/index.js';
export { BUYER_TOKEN_CONTEXT, checkBuyerToken, makeBuyerToken } from './buyer/index.js';
export type { BuyerTokenCheck, BuyerTokenKey } from './buyer/index.js';
export { DEFAULT_BUYER_LINK_TTL, MAX_BUYER_LINK_TTL, MIN_BUYER_LINK_TTL } from './admin/index.js';

// Key administration without HTTP (the CLI's operations, docs/protocol.md#administration)
export { createKeyAdmin } from './admin/index.js';
export type { KeyAdmin } from './admin/index.js';
// The admin operations, declared once (docs/protocol.md#administration): the table the HTTP routes,
// the CLI, the console's client and the OpenAPI document are made from or checked against
export { ADMIN_OPERATIONS } from './admin/index.js';
export type {
  AdminArguments,
  AdminCommand,
  AdminOperation,
  AdminOperations,
  AdminOutput,
  CommandAction,
} from './admin/index.js';
export { isMistake } from './admin/index.js';
export { withAdminOperations } from './admin/index.js';
export { AdminError, isAdminError } from './admin/index.js';
export type { AdminErrorClass, AdminErrorCode } from './admin/index.js';
export {
  DEFAULT_ACTIVITY_DAYS,
  MAX_ACTIVITY_DAYS,
  MAX_LABEL_LENGTH,
  MAX_REASON_LENGTH,
  MAX_SITES,
} from './admin/index.js';
export { parseDateTime } from './admin/index.js';
export { ADMIN_AUTH_FAILURES, hashToken, isAuthorized, TOKEN_USE_RESOLUTION_SECONDS } from './admin/index.js';
export { AUTHOR_TOKEN_PREFIX, hashAuthorToken, isAuthorTokenShape, TOKEN_ID_PREFIX } from './admin/index.js';

// Errors (RFC 9457): the problem answer an adapter sends itself (docs/protocol.md#errors)
export { problemResponse } from './http/index.js';

// Configuration (docs/protocol.md#configuration): one path from the environment to the service's options
export { delivererOptions, readServiceConfig, serviceOptions } from './config/index.js';
export type { ServiceConfig } from './config/index.js';
export { configErrorLine, invalid, parsed } from './config/index.js';
export type { Parsed } from './config/index.js';
export { readVariable } from './config/index.js';
export type { Environment } from './config/index.js';
// A signing seed file (docs/protocol.md#signature): LICENCE_SIGNING_KEY_FILE, and the Koa server's embedded key
export { loadSeedFile } from './config/index.js';

// What every adapter logs and reads alike (docs/protocol.md#privacy, #limits)
export { LOG_REDACTION, redactLogFields } from './service/index.js';
export { routeLabel } from './service/index.js';
export { bodyLimitFor, isServicePath } from './service/index.js';

// Webhooks (docs/protocol.md#webhooks): the deliverer, the event types, and the delivery id every store names
export { createWebhookDeliverer, WEBHOOK_EVENT_TYPES, webhookDeliveryId } from './webhooks/index.js';
export type { WebhookDeliverer, WebhookEventType } from './webhooks/index.js';

// Ports and their in-process implementations. `Store` carries the port's record types in its
// namespace (Store.StoredKey, Store.NewKey, Store.ProductChange, ...)
export type { Clock, Logger, RateLimiter, Signer, Store } from './ports/index.js';
export { createMemoryRateLimiter } from './ports/index.js';
export type { MemoryRateLimiter, MemoryRateLimiterOptions } from './ports/index.js';
export { createNodeSigner } from './ports/index.js';
export { createNodeVerifier } from './ports/index.js';
export type { Verifier } from './ports/index.js';
export { randomBytes } from './ports/index.js';

// What the SQLite and PostgreSQL stores share (docs/protocol.md#storage, #rate-limit)
export { pendingMigrations, refuseNewerSchema, SchemaVersionError } from './ports/index.js';
export { storedColumn } from './ports/index.js';
export { utcDay } from './ports/index.js';
export { requireKeyId } from './ports/index.js';
export { retryAfterSeconds, slidingWindow } from './ports/index.js';
