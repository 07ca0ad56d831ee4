// @licence/pg-cluster: a throwaway PostgreSQL cluster for tests. This file only re-exports.
export { DEBIAN_BIN_DIRS, findPostgresBinDir } from './find-postgres-bin.js';
export { freePort } from './free-port.js';
export { postgresAvailability } from './postgres-availability.js';
export type { PostgresAvailability } from './postgres-availability.js';
export { startPostgres } from './start-postgres.js';
export type { PostgresCluster, StartPostgresOptions } from './start-postgres.js';
