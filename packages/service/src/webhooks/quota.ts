import { checkedWholeNumber } from '../config/index.js';

/**
 * How many webhook endpoints one author may have (docs/protocol.md#endpoints,
 * LICENCE_WEBHOOKS_PER_AUTHOR). Each endpoint multiplies every event of the author into one more
 * delivery and, while its receiver is slow, one more socket held by the deliverer: without a
 * quota, one author token could fill the store and the deliverer for everyone. Every-author
 * endpoints (`author` null) are the operator's alone and not counted.
 */

/** LICENCE_WEBHOOKS_PER_AUTHOR when unset: a shop, its staging copy and a few tools, with room to spare. */
export const DEFAULT_WEBHOOKS_PER_AUTHOR = 10;
/** Its ceiling: far above any shop's needs, low enough that a typo stops the start. */
export const MAX_WEBHOOKS_PER_AUTHOR = 1000;

/** ServiceOptions and KeyAdminOptions `webhooksPerAuthor`: an integer from 0 to 1000; absent is 10. */
export function checkedWebhooksPerAuthor(value: unknown): number {
  return checkedWholeNumber('webhooksPerAuthor', value, {
    min: 0,
    max: MAX_WEBHOOKS_PER_AUTHOR,
    fallback: DEFAULT_WEBHOOKS_PER_AUTHOR,
  });
}
