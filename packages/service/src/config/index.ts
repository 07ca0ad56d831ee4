// config/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export {
  DEFAULT_BUYER_TRANSFERS_PER_30_DAYS,
  MAX_BUYER_TRANSFERS_PER_30_DAYS,
  checkedBuyerTransfers,
  checkedPublicUrl,
  normalisePublicUrl,
  parseBuyerTransfers,
  parsePublicUrl,
  publicUrlFault,
} from './buyer-config.js';
export {
  LOG_LEVELS,
  MIN_ADMIN_TOKEN_DISTINCT,
  MIN_ADMIN_TOKEN_LENGTH,
  adminTokenFault,
  decodeSeed,
  isPostgresUrl,
  logLevelOrInfo,
  parseAdminToken,
  parseDatabaseUrl,
  parseLogLevel,
  parseStagingHosts,
  parseWebhookAllowPrivate,
  parseWebhookConcurrency,
  parseWebhooksPerAuthor,
} from './config-values.js';
export type { LogLevel } from './config-values.js';
export type { ClientAddressRules, TrustProxyNotice } from './client-address.js';
export { parseTrustProxy } from './parse-trust-proxy.js';
export { combine, configErrorLine, invalid, parsed, required } from './parsed.js';
export type { ConfigError, Parsed } from './parsed.js';
export { loadSeedFile } from './seed-file.js';
export {
  absolutePath,
  parseSigningKey,
  readSharedConfig,
  readVariable,
  readWebhookConfig,
} from './shared-config.js';
export type {
  ConfiguredSigningKey,
  Environment,
  ServiceConfig,
  SharedConfig,
  SharedReadings,
  WebhookConfig,
} from './shared-config.js';
export { checkedWholeNumber } from './whole-number-option.js';
export { readServiceConfig } from './service-config.js';
export type { Readings, ReadServiceConfig, RequirableVariable, ServiceConfigReading } from './service-config.js';
export { delivererOptions, serviceOptions } from './service-options.js';
export type { ServicePorts, ServiceSettings } from './service-options.js';
