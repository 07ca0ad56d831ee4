import { formatQuand } from '@licence/core';
import { domainView, findKey, stateOf } from './key-admin-keys.js';
import type { KeyAdminOptions, KeyView } from './key-admin-types.js';
import { nowSeconds } from './service-context.js';

/**
 * A key as the author sees it (docs/protocol.md#key-lifecycle): by its hint, never whole; a trial
 * past its end shows `expiree`.
 */
export async function showKey(options: KeyAdminOptions, cle: string): Promise<KeyView> {
  const stored = await findKey(options.store, cle);
  return {
    hint: stored.hint,
    produit: stored.produit,
    kind: stored.kind,
    status: stateOf(stored, nowSeconds(options.clock)),
    sites: stored.sites,
    expire: stored.expiresAt === null ? null : formatQuand(stored.expiresAt),
    quand: stored.endedAt === null ? null : formatQuand(stored.endedAt),
    reason: stored.reason,
    domains: stored.domains.map(domainView),
  };
}
