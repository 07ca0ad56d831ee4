import { keyState } from '@licence/core';
import { checkBuyerToken } from './token.js';
import type { BuyerEndReason } from './page-views.js';
import type { StoredKey } from '../ports/index.js';
import { callOr503, type ServiceContext } from '../http/index.js';

/**
 * The key a buyer link opens (docs/protocol.md#buyer-links), read once per request: the token checked
 * against the service's own public key (on node:crypto, node-verifier.ts), then the key it names,
 * which must still be the one the link was made for (its hint) and still alive. The link dies with its key: a regenerated, transferred or
 * revoked key, or a trial past its end, ends it (410), whatever its own expiry says. What the pages
 * show of the product and its author comes with it.
 */

export type LinkedKey =
  | {
      readonly status: 'open';
      readonly stored: StoredKey;
      /** The link's expiry, Unix seconds. */
      readonly expires: number;
      readonly productName: string;
      readonly authorName: string;
    }
  | { readonly status: 'end'; readonly reason: BuyerEndReason; readonly authorName?: string };

export async function linkedKey(
  context: Pick<ServiceContext, 'store' | 'verifier'>,
  token: string,
  now: number,
): Promise<LinkedKey> {
  const checked = checkBuyerToken(context.verifier, token, now);
  if (checked.status === 'invalid') return { status: 'end', reason: 'invalid' };
  const stored = await callOr503(() => context.store.findKeyById(checked.keyId));
  // Signed by this service, but for another key than the one stored under that id now.
  if (stored === null || stored.hint !== checked.hint) return { status: 'end', reason: 'invalid' };
  const names = await namesOf(context, stored);
  if (checked.status === 'expired') return { status: 'end', reason: 'expired', authorName: names.authorName };
  if (keyState(stored, now) !== 'active') return { status: 'end', reason: 'key-ended', authorName: names.authorName };
  return { status: 'open', stored, expires: checked.expires, ...names };
}

/**
 * The product's name and its author's (who the buyer contacts); their ids when there is no record
 * (docs/protocol.md#key-lifecycle: a product needs no author record).
 */
async function namesOf(
  context: Pick<ServiceContext, 'store'>,
  stored: StoredKey,
): Promise<{ readonly productName: string; readonly authorName: string }> {
  const product = await callOr503(() => context.store.getProduct(stored.produit));
  if (product === null) return { productName: stored.produit, authorName: stored.produit };
  const author = await callOr503(() => context.store.getAuthor(product.author));
  return { productName: product.name, authorName: author?.name ?? product.author };
}
