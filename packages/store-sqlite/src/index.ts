// @licence/store-sqlite: the embedded default store (CONTRIBUTING.md#architecture). This file only
// re-exports.
export { openSqliteStore } from './open-sqlite-store.js';
export type { SqliteStoreOptions } from './open-sqlite-store.js';
export { BUSY_TIMEOUT_MS } from './open-database.js';
export { PURGE_CHUNK } from './purge-request-log.js';
export { CHECKPOINT_BUSY_MS } from './wal-truncate.js';
export { DATABASE_FILE_MODE } from './private-file.js';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
export { SchemaVersionError } from '@licence/service';
