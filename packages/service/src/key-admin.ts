import { issueKey } from './key-admin-issue.js';
import { addProduct, installations } from './key-admin-products.js';
import { purge } from './key-admin-purge.js';
import { regenerateKey, transferKey } from './key-admin-replace.js';
import { revokeKey } from './key-admin-revoke.js';
import { showKey } from './key-admin-show.js';
import type { KeyAdmin, KeyAdminOptions } from './key-admin-types.js';

/**
 * Key administration (docs/protocol.md#key-lifecycle, #administration) as plain operations on typed
 * inputs (key-admin-types.ts), one file per operation or concern. The admin HTTP API reads its JSON
 * bodies into these inputs and maps their `AdminError`s to problems (admin-fields.ts,
 * admin-routes.ts); the `licence` CLI calls them on its configured store without HTTP.
 */
export function createKeyAdmin(options: KeyAdminOptions): KeyAdmin {
  return {
    addProduct: (input) => addProduct(options, input),
    issueKey: (input) => issueKey(options, input),
    showKey: (cle) => showKey(options, cle),
    regenerateKey: (cle) => regenerateKey(options, cle),
    transferKey: (cle, input = {}) => transferKey(options, cle, input),
    revokeKey: (cle, input = {}) => revokeKey(options, cle, input),
    installations: (productId) => installations(options, productId),
    purge: () => purge(options),
  };
}
