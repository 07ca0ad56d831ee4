import { formatQuand, keyState } from '@licence/core';
import { domainView } from './keys.js';
import { type AdminContext, reachKey } from './scope.js';
import type { KeyView } from './types.js';
import { nowSeconds } from '../http/index.js';

/**
 * A key as the author sees it (docs/protocol.md#key-lifecycle): by its hint, never whole; a trial
 * past its end shows `expiree`.
 */
export async function showKey(context: AdminContext, cle: string): Promise<KeyView> {
  const stored = await reachKey(context, cle);
  return {
    hint: stored.hint,
    produit: stored.produit,
    kind: stored.kind,
    status: keyState(stored, nowSeconds(context.clock)),
    sites: stored.sites,
    expire: stored.expiresAt === null ? null : formatQuand(stored.expiresAt),
    quand: stored.endedAt === null ? null : formatQuand(stored.endedAt),
    reason: stored.reason,
    domains: stored.domains.map(domainView),
  };
}
