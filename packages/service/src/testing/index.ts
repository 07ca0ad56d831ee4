// @licence/service/testing: the shared Store contract suite (vitest). This file only re-exports.
export { storeContract } from './store-contract.js';
export type { OpenedStore, StoredLogRow } from './store-contract.js';
