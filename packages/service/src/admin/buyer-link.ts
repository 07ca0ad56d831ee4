import { formatQuand } from '@licence/core';
import { adminError } from './errors.js';
import { makeBuyerToken } from '../buyer/index.js';
import { requireAlive } from './keys.js';
import { type AdminContext, reachKey } from './scope.js';
import type { BuyerLinkInput, BuyerLinkView } from './types.js';
import { nowSeconds } from '../http/index.js';

/**
 * A buyer link (docs/protocol.md#buyer-links): the author's shop, or the operator, asks for one for
 * a live key it reaches (scope.ts), and hands it to the key's buyer, who then sees the key
 * and moves or frees its sites without an account. The link holds a token the service signs
 * (buyer/token.ts); it lives `ttl` seconds and dies with its key. Its URL is never logged.
 */

/** The link's life unless asked (a day), and its bounds: a minute to 30 days. */
export const DEFAULT_BUYER_LINK_TTL = 86_400;
export const MIN_BUYER_LINK_TTL = 60;
export const MAX_BUYER_LINK_TTL = 2_592_000;

/** `ttl`: an integer from 60 to 2592000 seconds, 86400 when absent; `INVALID_FIELD` otherwise. */
export function buyerLinkTtl(value: number | undefined): number {
  if (value === undefined) return DEFAULT_BUYER_LINK_TTL;
  if (!Number.isInteger(value) || value < MIN_BUYER_LINK_TTL || value > MAX_BUYER_LINK_TTL) {
    throw adminError(
      'INVALID_FIELD',
      'ttl',
      `expected an integer from ${MIN_BUYER_LINK_TTL} to ${MAX_BUYER_LINK_TTL} (seconds)`,
    );
  }
  return value;
}

export async function buyerLink(
  context: AdminContext,
  cle: string,
  base: string,
  input: BuyerLinkInput = {},
): Promise<BuyerLinkView> {
  const ttl = buyerLinkTtl(input.ttl);
  const stored = await reachKey(context, cle);
  const now = nowSeconds(context.clock);
  // docs/protocol.md#key-lifecycle: an action on a key that is no longer alive is a 409.
  requireAlive(stored, now);
  if (context.signer === undefined) {
    throw new TypeError('buyerLink: createKeyAdmin was given no signer (KeyAdminOptions signer)');
  }
  const expires = now + ttl;
  const token = makeBuyerToken(context.signer, { keyId: stored.id, hint: stored.hint }, expires);
  // The key's hint only: the URL holds the token, which opens the key's page to whoever has it.
  context.logger.info({ action: 'key.buyer-link', hint: stored.hint, ttl }, 'buyer link made');
  return { url: `${base}/buyer/${token}`, expires: formatQuand(expires) };
}
