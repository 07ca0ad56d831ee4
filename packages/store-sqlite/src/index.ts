// @licence/store-sqlite: the embedded default store (CONTRIBUTING.md#architecture). This file only
// re-exports.
export { BUSY_TIMEOUT_MS, openSqliteStore, PURGE_CHUNK } from './open-sqlite-store.js';
export type { SqliteStoreOptions } from './open-sqlite-store.js';
export { MIGRATIONS, SCHEMA_VERSION, SchemaVersionError } from './migrations.js';
