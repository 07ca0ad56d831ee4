// config/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export { checkedBuyerTransfers, checkedPublicUrl, normalisePublicUrl, publicUrlFault } from './buyer-config.js';
export { adminTokenFault } from './config-values.js';
export { configErrorLine, invalid, parsed } from './parsed.js';
export type { Parsed } from './parsed.js';
export { loadSeedFile } from './seed-file.js';
export { readServiceConfig } from './service-config.js';
export { delivererOptions, serviceOptions } from './service-options.js';
export { readVariable } from './shared-config.js';
export type { Environment, ServiceConfig } from './shared-config.js';
export { checkedWholeNumber } from './whole-number-option.js';
