// admin/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { createAdminAuthFailures, hashToken } from './auth.js';
export { AdminError, isAdminError } from './errors.js';
export { optionalString, requiredString } from './fields.js';
export { withAdminOperations } from './openapi.js';
export { isMistake } from './operation.js';
export type { AdminCommand, AdminOperation, AdminOperations, CommandAction } from './operation.js';
export { ADMIN_OPERATIONS } from './operations.js';
export type { AdminArguments, AdminOutput, KeyAdmin } from './operations.js';
export { adminRouteName, handleAdmin, isAdminPath, toHttpError } from './routes.js';
export { transferDomains, transferStored } from './replace.js';
export type { TransferDomains } from './replace.js';
export type { TransferInput } from './types.js';
export { createKeyAdmin } from './key-admin.js';
