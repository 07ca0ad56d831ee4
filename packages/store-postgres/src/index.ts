// @licence/store-postgres: the store for several processes or machines
// (CONTRIBUTING.md#architecture). This file only re-exports.
export {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_POOL_MAX,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  describeDatabase,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  QUERY_TIMEOUT_MARGIN_MS,
} from './create-pool.js';
export type { PostgresPoolOptions, PostgresStoreOptions } from './create-pool.js';
export { openPostgresStore } from './open-postgres-store.js';
export { PURGE_CHUNK } from './purge-request-log.js';
export { WEBHOOK_CLAIM_LOCK } from './webhook-claim.js';
export { WEBHOOK_DELETE_CHUNK } from './webhook-endpoints.js';
export { WEBHOOK_PURGE_CHUNK } from './webhook-purge.js';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
export { MIGRATION_LOCK, MIGRATION_TIMEOUT_MS } from './migrate.js';
export { SchemaVersionError } from '@licence/service';
export { openPostgres } from './open-postgres.js';
export type { OpenPostgresOptions, PostgresBackend } from './open-postgres.js';
export { createPostgresRateLimiter } from './postgres-rate-limiter.js';
export type { PostgresRateLimiter, PostgresRateLimiterOptions } from './postgres-rate-limiter.js';
