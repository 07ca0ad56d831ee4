// @licence/store-memory: the Store kept in memory (tests, examples). This file only re-exports.
export { createMemoryStore } from './memory-store.js';
export type { MemoryStore } from './memory-store.js';
