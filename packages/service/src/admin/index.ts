// admin/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { createAdminAuthFailures, hashToken } from './admin-auth.js';
export { AdminError, isAdminError } from './admin-errors.js';
export { optionalString, requiredString } from './admin-fields.js';
export { withAdminOperations } from './admin-openapi.js';
export { isMistake } from './admin-operation.js';
export type { AdminCommand, AdminOperation, AdminOperations, CommandAction } from './admin-operation.js';
export { ADMIN_OPERATIONS } from './admin-operations.js';
export type { AdminArguments, AdminOutput, KeyAdmin } from './admin-operations.js';
export { adminRouteName, handleAdmin, isAdminPath, toHttpError } from './admin-routes.js';
export { stateMirroringVerdict } from './key-admin-keys.js';
export { transferDomains, transferStored } from './key-admin-replace.js';
export type { TransferDomains } from './key-admin-replace.js';
export type { TransferInput } from './key-admin-types.js';
export { createKeyAdmin } from './key-admin.js';
