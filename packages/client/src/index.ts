// @licence/client: the TypeScript SDK a product embeds. This file only re-exports.

// The licence of one product on one site (docs/protocol.md#clients)
export { Licence } from './licence.js';
export type { LicenceVerdict } from './licence.js';
export type { LicenceOptions } from './licence-options.js';
export { MAX_TIMEOUT_MS } from './licence-options.js';
export type { Lang } from './verdict-message.js';
export type { CryptoChoice } from './signature-verifier.js';
export type { FetchLike } from './call-service.js';
export { DEFAULT_TIMEOUT_MS } from './call-service.js';
export { CLIENT_VERSION } from './version.js';

// Staging copies on hosting providers' domains (docs/protocol.md#staging-hosts)
export { isStagingHost } from './staging-host.js';

// The one error family: every bad option is a ValidationError naming it. Core's class in the
// sources, but the build bundles core (tsup.config.ts), so the published client's is its own copy
// (README "Install"): catch with these, not with @licence/core's.
export { isValidationError, ValidationError } from '@licence/core';
export type { ClientState, Donnees } from '@licence/core';
