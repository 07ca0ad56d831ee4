// admin/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export {
  ADMIN_AUTH_FAILURES,
  TOKEN_USE_RESOLUTION_SECONDS,
  createAdminAuthFailures,
  hashToken,
  isAuthorized,
} from './admin-auth.js';
export { AdminError, isAdminError } from './admin-errors.js';
export type { AdminErrorClass, AdminErrorCode } from './admin-errors.js';
export { optionalString, requiredString } from './admin-fields.js';
export { ADMIN_OPERATIONS } from './admin-operations.js';
export type { AdminArguments, AdminOutput, KeyAdmin } from './admin-operations.js';
export type {
  AdminCommand,
  AdminOperation,
  CommandAction,
  AdminOperations,
  CommandArguments,
  CommandMistake,
  CommandRuntime,
} from './admin-operation.js';
export { isMistake } from './admin-operation.js';
export { adminOpenApiPaths, openApiPath, withAdminOperations } from './admin-openapi.js';
export type {
  OpenApiMethod,
  OpenApiOperation,
  OpenApiPathItem,
  OpenApiPathParameter,
  OpenApiPaths,
} from './admin-openapi.js';
export { runOperation } from './key-admin.js';
export { adminRouteName, handleAdmin, isAdminPath, toHttpError } from './admin-routes.js';
export { AUTHOR_TOKEN_PREFIX, TOKEN_ID_PREFIX, hashAuthorToken, isAuthorTokenShape } from './author-token.js';
export { DEFAULT_BUYER_LINK_TTL, MAX_BUYER_LINK_TTL, MIN_BUYER_LINK_TTL } from './key-admin-buyer-link.js';
export { stateMirroringVerdict } from './key-admin-keys.js';
export { transferDomains, transferStored } from './key-admin-replace.js';
export type { TransferDomains } from './key-admin-replace.js';
export {
  DEFAULT_ACTIVITY_DAYS,
  MAX_ACTIVITY_DAYS,
  MAX_LABEL_LENGTH,
  MAX_REASON_LENGTH,
  MAX_SITES,
} from './key-admin-rules.js';
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
  IssueKeyInput,
  IssuedKey,
  KeyAdminOptions,
  KeyState,
  KeyView,
  MeView,
  NewTokenView,
  NewWebhookView,
  Principal,
  ProductChangeInput,
  ProductInput,
  ProductSummary,
  ProductView,
  ReplacedKey,
  RevokeInput,
  RevokedKey,
  RotatedSecretView,
  TokenInput,
  TokenView,
  TransferInput,
  WebhookAttemptView,
  WebhookDeliveriesView,
  WebhookDeliveryView,
  WebhookInput,
  WebhookView,
} from './key-admin-types.js';
export { createKeyAdmin } from './key-admin.js';
export { parseDateTime } from './parse-date-time.js';
export { twelveMonthsBefore } from './retention.js';
