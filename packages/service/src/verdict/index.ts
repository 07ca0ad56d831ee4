// verdict/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { hashKey } from './key-hash.js';
export { CORS_HEADERS, PUBLIC_PATHS, handlePublic } from './public-endpoint.js';
export { DEFAULT_BLOCKED_USER_AGENTS } from './user-agents.js';
