// @licence/service: HTTP-agnostic request handling and key administration. This file only re-exports.

// The service (docs/protocol.md#request, #rate-limit, #administration)
export { createService, HEALTH_PATH } from './service/index.js';
export type {
  ConsoleAssets,
  Service,
  ServiceOptions,
  ServiceRequest,
  ServiceResponse,
  TrustProxy,
} from './http/index.js';
export { CORS_HEADERS, LICENCE_PATH, PUBLIC_ALLOW, PUBLIC_PATHS } from './verdict/index.js';
export { isJsonContentType, MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES } from './http/index.js';
export { HEALTH_TIMEOUT_MS } from './service/index.js';

// The console (docs/protocol.md#console)
export { CONSOLE_HEADERS, CONSOLE_PATH, isConsolePath } from './console/index.js';
export { preferredLanguage } from './http/index.js';

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
export { OPERATOR } from './admin/index.js';
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
export { adminOpenApiPaths, openApiPath, withAdminOperations } from './admin/index.js';
export type {
  OpenApiMethod,
  OpenApiOperation,
  OpenApiPathItem,
  OpenApiPathParameter,
  OpenApiPaths,
} from './admin/index.js';
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
export { hashKey } from './verdict/index.js';
export { twelveMonthsBefore } from './admin/index.js';

// Errors (RFC 9457)
export { HttpError, isHttpError, PROBLEM_BASE, problemBody, PROBLEMS, problemType } from './http/index.js';
export { problemResponse } from './http/index.js';
export type { ProblemBody, ProblemKind } from './http/index.js';

// Client IP and the User-Agent filter (docs/protocol.md#client-address, #user-agent-filter)
export {
  clientIp,
  compileCidrs,
  compileTrustProxy,
  formatAddress,
  MAX_TRUST_PROXY_HOPS,
  parseAddress,
  rateLimitKey,
} from './http/index.js';
export { parseTrustProxy } from './config/index.js';
export { isTrustedPeer } from './http/index.js';
export {
  adminTokenFault,
  decodeSeed,
  LOG_LEVELS,
  logLevelOrInfo,
  MIN_ADMIN_TOKEN_LENGTH,
  parseAdminToken,
  parseLogLevel,
  parseStagingHosts,
  parseWebhookAllowPrivate,
} from './config/index.js';
export type { LogLevel } from './config/index.js';
export type { CompiledCidr, CompiledTrustProxy } from './http/index.js';
export { DEFAULT_BLOCKED_USER_AGENTS, isBlockedUserAgent, LIBRARY_USER_AGENTS } from './verdict/index.js';
export type { LibraryUserAgent } from './verdict/index.js';

// Configuration (docs/protocol.md#configuration): one path from the environment to the service's options
export { delivererOptions, readServiceConfig, serviceOptions } from './config/index.js';
export type { ServiceConfig } from './config/index.js';
export { configErrorLine, invalid, parsed } from './config/index.js';
export type { ConfigError, Parsed } from './config/index.js';
export { absolutePath, readVariable, readWebhookConfig } from './config/index.js';
export type { ConfiguredSigningKey, Environment } from './config/index.js';
export { loadSeedFile } from './config/index.js';

// What every adapter logs and reads alike (docs/protocol.md#privacy, #limits)
export { LOG_REDACTION, redactLogFields } from './service/index.js';
export { routeLabel } from './service/index.js';
export { bodyLimitFor, isServicePath } from './service/index.js';

// Webhooks (docs/protocol.md#webhooks)
export {
  newWebhookEndpointId,
  newWebhookEventId,
  WEBHOOK_DELIVERY_PREFIX,
  WEBHOOK_ENDPOINT_PREFIX,
  WEBHOOK_EVENT_PREFIX,
  webhookDeliveryId,
} from './webhooks/index.js';
export { newWebhookSecret, parseWebhookSecret, WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX } from './webhooks/index.js';
export { signWebhook, webhookSignature } from './webhooks/index.js';
export type { WebhookHeaders, WebhookMessage } from './webhooks/index.js';
export {
  nextAttemptDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_JITTER,
  WEBHOOK_RETRY_DELAYS,
  webhookJitter,
} from './webhooks/index.js';
export type { DelayOptions } from './webhooks/index.js';
export {
  checkWebhookUrl,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  REFUSED_WEBHOOK_RANGES,
  refusedRange,
  safeLookup,
  WEBHOOK_PRIVATE_ADDRESS,
  WebhookAddressError,
} from './webhooks/index.js';
export type { ResolveAll, WebhookUrlOptions } from './webhooks/index.js';
export {
  createWebhookDeliverer,
  MAX_WEBHOOK_CONCURRENCY,
  WEBHOOK_BATCH,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_INTERVAL_MS,
  WEBHOOK_LEASE_MARGIN_SECONDS,
  WEBHOOK_TIMEOUT_MS,
} from './webhooks/index.js';
export type { WebhookDeliverer, WebhookDelivererOptions } from './webhooks/index.js';
export { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR } from './webhooks/index.js';
export {
  domainBoundData,
  keyIssuedData,
  keyReplacedData,
  keyRevokedData,
  verdictRefusedData,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_INITIATORS,
  webhookBody,
} from './webhooks/index.js';
export type {
  DomainBoundData,
  KeyIssuedData,
  KeyReplacedData,
  KeyRevokedData,
  VerdictRefusedData,
  WebhookEventData,
  WebhookEventType,
  WebhookInitiator,
} from './webhooks/index.js';

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
