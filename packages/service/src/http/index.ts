// http/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { preferredLanguage } from './accept-language.js';
export { MAX_TRUST_PROXY_HOPS, clientIp, compileCidrs, compileTrustProxy } from './client-ip.js';
export { formatAddress, isTrusted, parseAddress, rateLimitKey } from './client-ip.js';
export type { CompiledCidr } from './client-ip.js';
export { rateLimitWait } from './client-rate-limit.js';
export { HttpError, PROBLEM_BASE, isHttpError } from './problem.js';
export type { ProblemKind } from './problem.js';
export { MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES, checkBodySize, checkContentEncoding } from './request-body.js';
export { checkJsonContentType, field, isJsonContentType, parseJsonObject } from './request-body.js';
export { isSameOrigin, pageOrigin, publicBase } from './request-origin.js';
export { emptyResponse, errorResponse, jsonResponse, problemResponse } from './response.js';
export type { Headers } from './response.js';
export { callOr503, nowSeconds } from './service-context.js';
export type { ServiceContext } from './service-context.js';
export type { ConsoleAssets, Service, ServiceOptions, ServiceRequest } from './service-types.js';
export type { ServiceResponse, TrustProxy } from './service-types.js';
export { isTrustedPeer } from './trusted-peer.js';
