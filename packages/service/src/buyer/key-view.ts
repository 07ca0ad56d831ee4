import type { LinkedKey } from './link-key.js';
import type { BuyerKeyView, BuyerPagePlace } from './page-views.js';
import { buyerTransfersLeft } from './transfer-limit.js';
import type { ServiceContext } from '../http/index.js';

/** The key's page (docs/protocol.md#buyer-links) as its view: what page.ts renders. */

export type OpenKey = Extract<LinkedKey, { readonly status: 'open' }>;

/**
 * The view of an open link's key at `now`. `place` says where the page is answered: the form's
 * action is relative to it (`<token>/transfer` at /buyer/<token>, `transfer` one level deeper).
 */
export async function keyView(
  context: Pick<ServiceContext, 'store' | 'buyerTransfersPer30Days'>,
  linked: OpenKey,
  where: { readonly token: string; readonly place: BuyerPagePlace; readonly now: number },
  problem?: BuyerKeyView['problem'],
): Promise<BuyerKeyView> {
  const { stored } = linked;
  const transfersLeft = await buyerTransfersLeft(
    context.store,
    stored.lineage,
    context.buyerTransfersPer30Days,
    where.now,
  );
  return {
    kind: 'key',
    productName: linked.productName,
    produit: stored.produit,
    authorName: linked.authorName,
    hint: stored.hint,
    expiresAt: stored.expiresAt,
    domains: stored.domains.map(({ domain, firstSeen, lastSeen }) => ({ domain, firstSeen, lastSeen })),
    sites: stored.sites,
    transfersLeft,
    linkExpires: linked.expires,
    action: where.place === 'page' ? `${where.token}/transfer` : 'transfer',
    place: where.place,
    ...(problem === undefined ? {} : { problem }),
  };
}
