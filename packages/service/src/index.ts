// @licence/service: HTTP-agnostic request handling and key administration. This file only re-exports.

// The service (docs/protocol.md#request, #rate-limit, #administration)
export { createService, HEALTH_PATH } from './create-service.js';
export type { Service, ServiceOptions, ServiceRequest, ServiceResponse, TrustProxy } from './service-types.js';
export { CORS_HEADERS, PUBLIC_ALLOW, PUBLIC_PATHS } from './public-endpoint.js';
export { isJsonContentType, MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES } from './request-body.js';
export { HEALTH_TIMEOUT_MS } from './healthz.js';

// Key administration without HTTP (the CLI's operations, docs/protocol.md#administration)
export { createKeyAdmin, MAX_REASON_LENGTH } from './key-admin.js';
export type {
  DomainView,
  InstallationsView,
  IssuedKey,
  KeyAdmin,
  KeyAdminOptions,
  KeyState,
  KeyView,
  ProductView,
  ReplacedKey,
  RevokedKey,
} from './key-admin.js';
export { MAX_SITES, parseDateTime } from './admin-fields.js';
export { hashToken, isAuthorized } from './admin-routes.js';
export { hashKey } from './key-hash.js';
export { twelveMonthsBefore } from './retention.js';

// Errors (RFC 9457)
export { HttpError, isHttpError, PROBLEM_BASE, problemBody, PROBLEMS, problemType } from './problem.js';
export type { ProblemBody, ProblemKind } from './problem.js';

// Client IP and the User-Agent filter (docs/protocol.md#client-address, #user-agent-filter)
export { clientIp, compileCidrs, compileTrustProxy, formatAddress, parseAddress, rateLimitKey } from './client-ip.js';
export { MAX_TRUST_PROXY_HOPS, parseTrustProxy } from './parse-trust-proxy.js';
export { decodeSeed, isPostgresUrl, LOG_LEVELS, MIN_ADMIN_TOKEN_LENGTH, parseLogLevel } from './config-values.js';
export type { LogLevel } from './config-values.js';
export type { TrustProxyParse } from './parse-trust-proxy.js';
export type { CompiledCidr, CompiledTrustProxy } from './client-ip.js';
export { DEFAULT_BLOCKED_USER_AGENTS, isBlockedUserAgent } from './user-agents.js';

// Ports and their in-process implementations
export type {
  BoundDomain,
  Clock,
  Installation,
  Logger,
  NewKey,
  ProductRecord,
  RateLimiter,
  RequestLogEntry,
  Signer,
  Store,
  StoredKey,
} from './ports.js';
export { createMemoryStore } from './memory-store.js';
export type { MemoryStore } from './memory-store.js';
export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export type { MemoryRateLimiterOptions } from './memory-rate-limiter.js';
export { createNodeSigner } from './node-signer.js';
