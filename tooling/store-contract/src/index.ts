// @licence/store-contract: the Store contract suite (vitest) every store runs. This file only re-exports.
export { storeContract } from './store-contract.js';
export type { OpenedStore, StoredLogRow } from './store-contract.js';
