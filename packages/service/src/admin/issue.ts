import { formatQuand } from '@licence/core';
import { adminError } from './errors.js';
import { callOrStoreUnavailable, newKey } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, reachProduct } from './scope.js';
import type { IssuedKey, IssueKeyInput } from './types.js';
import { nowSeconds } from '../http/index.js';
import { keyIssuedEvent } from '../webhooks/index.js';

/**
 * Issues a key of a product (docs/protocol.md#key-lifecycle): the full key is in this answer only.
 * An unknown product, or one the principal does not reach (docs/protocol.md#authors), is
 * `PRODUCT_NOT_FOUND`; a second live dev key of a product, `DEV_KEY_EXISTS`. The `key.issued` event
 * (docs/protocol.md#webhooks: its hint, never the key) is stored with the key, or not at all.
 */
export async function issueKey(context: AdminContext, input: IssueKeyInput): Promise<IssuedKey> {
  const { store, clock, random, logger } = context;
  const now = nowSeconds(clock);
  const productId = rules.slug('produit', input.produit);
  const { kind } = input;
  const sites = rules.sites(input.sites, kind);
  const expiresAt = rules.expire(input.expire, kind, now);
  await reachProduct(context, productId);
  const { cle, key } = newKey(random, { produit: productId, kind, sites, expiresAt, createdAt: now });
  const expire = expiresAt === null ? null : formatQuand(expiresAt);
  const event = keyIssuedEvent(random, now, { hint: key.hint, produit: productId, kind, sites, expire });
  const result = await callOrStoreUnavailable(() => store.insertKey(key, undefined, [event]));
  if (result.result === 'no-product') throw adminError('PRODUCT_NOT_FOUND', productId);
  if (result.result === 'dev-exists') throw adminError('DEV_KEY_EXISTS', productId);
  logger.info({ action: 'key.issue', hint: key.hint, produit: productId, kind }, 'key issued');
  return { cle, hint: key.hint, produit: productId, kind, sites, expire };
}
