// @licence/service: HTTP-agnostic request handling and key administration. This file only re-exports.

// The service (docs/protocol.md#request, #rate-limit, #administration)
export { createService, HEALTH_PATH } from './create-service.js';
export type {
  ConsoleAssets,
  Service,
  ServiceOptions,
  ServiceRequest,
  ServiceResponse,
  TrustProxy,
} from './service-types.js';
export { CORS_HEADERS, LICENCE_PATH, PUBLIC_ALLOW, PUBLIC_PATHS } from './public-endpoint.js';
export { isJsonContentType, MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES } from './request-body.js';
export { HEALTH_TIMEOUT_MS } from './healthz.js';

// The console (docs/protocol.md#console)
export { CONSOLE_HEADERS, CONSOLE_PATH, isConsolePath } from './console-route.js';
export { preferredLanguage } from './accept-language.js';

// Buyer links (docs/protocol.md#buyer-links)
export {
  BUYER_PAGE_ROUTE,
  BUYER_PATH,
  BUYER_STYLESHEET_PATH,
  BUYER_TRANSFER_ROUTE,
  buyerRouteLabel,
  isBuyerPath,
} from './buyer-routes.js';
export { BUYER_PAGE_HEADERS } from './buyer-page.js';
export { BUYER_TOKEN_CONTEXT, checkBuyerToken, makeBuyerToken } from './buyer-token.js';
export type { BuyerTokenCheck, BuyerTokenKey } from './buyer-token.js';
export {
  DEFAULT_BUYER_TRANSFERS_PER_30_DAYS,
  MAX_BUYER_TRANSFERS_PER_30_DAYS,
  normalisePublicUrl,
  parseBuyerTransfers,
  parsePublicUrl,
  publicUrlFault,
} from './buyer-config.js';
export { DEFAULT_BUYER_LINK_TTL, MAX_BUYER_LINK_TTL, MIN_BUYER_LINK_TTL } from './key-admin-buyer-link.js';

// Key administration without HTTP (the CLI's operations, docs/protocol.md#administration)
export { createKeyAdmin } from './key-admin.js';
export { OPERATOR } from './key-admin-types.js';
export type {
  ActivityDay,
  ActivityView,
  AuthorInput,
  AuthorView,
  BuyerLinkInput,
  BuyerLinkView,
  DomainView,
  InstallationsView,
  IssuedKey,
  IssueKeyInput,
  KeyAdmin,
  KeyAdminOptions,
  KeyState,
  KeyView,
  MeView,
  NewTokenView,
  Principal,
  ProductChangeInput,
  ProductInput,
  ProductSummary,
  ProductView,
  ReplacedKey,
  RevokedKey,
  RevokeInput,
  TokenInput,
  TokenView,
  TransferInput,
  NewWebhookView,
  RotatedSecretView,
  WebhookAttemptView,
  WebhookDeliveriesView,
  WebhookDeliveryView,
  WebhookInput,
  WebhookView,
} from './key-admin-types.js';
export { AdminError, isAdminError } from './admin-errors.js';
export type { AdminErrorClass, AdminErrorCode } from './admin-errors.js';
export {
  DEFAULT_ACTIVITY_DAYS,
  MAX_ACTIVITY_DAYS,
  MAX_LABEL_LENGTH,
  MAX_REASON_LENGTH,
  MAX_SITES,
} from './key-admin-rules.js';
export { parseDateTime } from './parse-date-time.js';
export { ADMIN_AUTH_FAILURES, hashToken, isAuthorized, TOKEN_USE_RESOLUTION_SECONDS } from './admin-auth.js';
export { AUTHOR_TOKEN_PREFIX, hashAuthorToken, isAuthorTokenShape, TOKEN_ID_PREFIX } from './author-token.js';
export { hashKey } from './key-hash.js';
export { twelveMonthsBefore } from './retention.js';

// Errors (RFC 9457)
export { HttpError, isHttpError, PROBLEM_BASE, problemBody, PROBLEMS, problemType } from './problem.js';
export { problemResponse } from './response.js';
export type { ProblemBody, ProblemKind } from './problem.js';

// Client IP and the User-Agent filter (docs/protocol.md#client-address, #user-agent-filter)
export {
  clientIp,
  compileCidrs,
  compileTrustProxy,
  formatAddress,
  MAX_TRUST_PROXY_HOPS,
  parseAddress,
  rateLimitKey,
} from './client-ip.js';
export { parseTrustProxy } from './parse-trust-proxy.js';
export { isTrustedPeer } from './trusted-peer.js';
export {
  adminTokenFault,
  decodeSeed,
  isPostgresUrl,
  LOG_LEVELS,
  logLevelOrInfo,
  MIN_ADMIN_TOKEN_DISTINCT,
  MIN_ADMIN_TOKEN_LENGTH,
  parseAdminToken,
  parseDatabaseUrl,
  parseLogLevel,
  parseStagingHosts,
  parseWebhookAllowPrivate,
  parseWebhookConcurrency,
  parseWebhooksPerAuthor,
} from './config-values.js';
export type { LogLevel } from './config-values.js';
export type { CompiledCidr, CompiledTrustProxy } from './client-ip.js';
export { DEFAULT_BLOCKED_USER_AGENTS, isBlockedUserAgent, LIBRARY_USER_AGENTS } from './user-agents.js';
export type { LibraryUserAgent } from './user-agents.js';

// Configuration (docs/protocol.md#configuration): one result shape, one reading of the shared variables
export { combine, configErrorLine, invalid, parsed, required } from './parsed.js';
export type { ConfigError, Parsed } from './parsed.js';
export { absolutePath, parseSigningKey, readSharedConfig, readVariable, readWebhookConfig } from './shared-config.js';
export type {
  ConfiguredSigningKey,
  Environment,
  SharedConfig,
  SharedReadings,
  WebhookConfig,
} from './shared-config.js';
export { loadSeedFile } from './seed-file.js';

// What every adapter logs and reads alike (docs/protocol.md#privacy, #limits)
export { REDACTED_CENSOR, REDACTED_DEPTH, REDACTED_FIELDS, redactLogFields } from './log-redaction.js';
export { routeLabel } from './route-label.js';
export { bodyLimitFor, isServicePath } from './service-paths.js';

// Webhooks (docs/protocol.md#webhooks)
export {
  newWebhookEndpointId,
  newWebhookEventId,
  WEBHOOK_DELIVERY_PREFIX,
  WEBHOOK_ENDPOINT_PREFIX,
  WEBHOOK_EVENT_PREFIX,
  webhookDeliveryId,
} from './webhook-ids.js';
export { newWebhookSecret, parseWebhookSecret, WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX } from './webhook-secret.js';
export { signWebhook, webhookSignature } from './webhook-signature.js';
export type { WebhookHeaders, WebhookMessage } from './webhook-signature.js';
export {
  nextAttemptDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_JITTER,
  WEBHOOK_RETRY_DELAYS,
  webhookJitter,
} from './webhook-schedule.js';
export type { DelayOptions } from './webhook-schedule.js';
export {
  checkWebhookUrl,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  REFUSED_WEBHOOK_RANGES,
  refusedRange,
  safeLookup,
  WEBHOOK_PRIVATE_ADDRESS,
  WebhookAddressError,
} from './webhook-destination.js';
export type { ResolveAll, WebhookUrlOptions } from './webhook-destination.js';
export {
  createWebhookDeliverer,
  MAX_WEBHOOK_CONCURRENCY,
  WEBHOOK_BATCH,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_INTERVAL_MS,
  WEBHOOK_LEASE_MARGIN_SECONDS,
  WEBHOOK_TIMEOUT_MS,
} from './webhook-deliverer.js';
export type { WebhookDeliverer, WebhookDelivererOptions } from './webhook-deliverer.js';
export { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR } from './webhook-quota.js';
export {
  domainBoundData,
  keyIssuedData,
  keyReplacedData,
  keyRevokedData,
  verdictRefusedData,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_INITIATORS,
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

// Ports and their in-process implementations
export type {
  ActivityCount,
  AuthorRecord,
  ClaimedWebhookDelivery,
  NewWebhookEndpoint,
  NewWebhookEvent,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
  AuthorTokenRecord,
  BoundDomain,
  Clock,
  Created,
  Installation,
  KeyChangeInitiator,
  Logger,
  NewAuthorToken,
  NewKey,
  ProductChange,
  ProductRecord,
  RateLimiter,
  RequestLogEntry,
  Signer,
  Store,
  StoredKey,
  VerdictOutcome,
} from './ports.js';
export { createMemoryStore } from './memory-store.js';
export type { MemoryStore } from './memory-store.js';
export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export type { MemoryRateLimiter, MemoryRateLimiterOptions } from './memory-rate-limiter.js';
export { createNodeSigner } from './node-signer.js';
export { createNodeVerifier } from './node-verifier.js';
export type { Verifier } from './node-verifier.js';
export { randomBytes } from './node-random.js';

// What the SQLite and PostgreSQL stores share (docs/protocol.md#storage, #rate-limit)
export { pendingMigrations, refuseNewerSchema, SchemaVersionError } from './schema-version.js';
export { storedKeyEndedBy, storedKeyKind, storedKeyStatus, storedStaging } from './stored-key-fields.js';
export { storedDeliveryStatus, storedEventType, WEBHOOK_DELIVERY_STATUSES } from './stored-webhook-fields.js';
export { DAY_SECONDS, storedOutcome, utcDay } from './activity-day.js';
export { requireKeyId } from './require-key-id.js';
export { retryAfterSeconds, slidingWindow } from './sliding-window.js';
export type { SlidingWindowOptions } from './sliding-window.js';
