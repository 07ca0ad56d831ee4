// verdict/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { hashKey } from './key-hash.js';
export { CORS_HEADERS, LICENCE_PATH, PUBLIC_ALLOW, PUBLIC_PATHS, handlePublic } from './public-endpoint.js';
export { DEFAULT_BLOCKED_USER_AGENTS, LIBRARY_USER_AGENTS, isBlockedUserAgent } from './user-agents.js';
export type { LibraryUserAgent } from './user-agents.js';
