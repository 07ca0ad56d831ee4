// @licence/pg-cluster/vitest: the cluster's lifecycle as vitest hooks. This file only re-exports.
export { throwawayPostgres } from './throwaway-postgres.js';
