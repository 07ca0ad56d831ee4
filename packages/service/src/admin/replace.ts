import { adminError } from './errors.js';
import { changedMeanwhile, callOrStoreUnavailable, replacementFor, requireAlive } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, reachKey } from './scope.js';
import type { KeyAdminOptions, Principal, ReplacedKey, TransferInput } from './types.js';
import type { StoredKey } from '../ports/index.js';
import { nowSeconds } from '../http/index.js';
import { keyReplacedEvent } from '../webhooks/index.js';
import type { WebhookInitiator } from '../webhooks/index.js';

/**
 * Regenerate and transfer (docs/protocol.md#key-lifecycle): a new key replaces a live one, which
 * then answers `regeneration` or `transfert`. The new key, shown this once, keeps the product, the
 * kind and the limits. Its `key.regenerated` or `key.transferred` event (docs/protocol.md#webhooks)
 * carries it in full (`data.cle`: the shop must hand it to its buyer), and is stored in the same
 * write as the replacement, or not at all. A transfer has one set of rules whoever asks: the admin
 * API and the CLI (`transferKey`, the principal's key) and a buyer link (buyer/routes.ts,
 * docs/protocol.md#buyer-links) both end in `transferStored`; only `initiatedBy` differs.
 */

/** Who replaced the key, as the event says: the operator's token or CLI, or an author's token. */
function initiatorOf(principal: Principal): WebhookInitiator {
  return principal.role === 'operator' ? 'operator' : 'author';
}

/** Stores the replacement of `stored` with its event; answers the new formatted key. */
async function replace(
  context: KeyAdminOptions,
  stored: StoredKey,
  status: 'regeneration' | 'transfert',
  change: { readonly domains: readonly string[]; readonly now: number; readonly initiatedBy: WebhookInitiator },
): Promise<{ readonly cle: string; readonly hint: string }> {
  const { domains, now, initiatedBy } = change;
  const replacement = replacementFor(context.random, stored, now);
  const type = status === 'regeneration' ? 'key.regenerated' : 'key.transferred';
  const data = { hint: stored.hint, cle: replacement.cle, produit: stored.produit };
  const event = keyReplacedEvent(context.random, type, now, { ...data, initiatedBy });
  // The store records `initiatedBy` as the old key's `endedBy`: a buyer's transfers are counted by it.
  const result = await callOrStoreUnavailable(() =>
    context.store.replaceKey(stored.id, status, replacement.key, domains, now, [event], initiatedBy),
  );
  if (result.result === 'not-active') throw changedMeanwhile(stored);
  return { cle: replacement.cle, hint: replacement.key.hint };
}

export async function regenerateKey(context: AdminContext, cle: string): Promise<ReplacedKey> {
  const stored = await reachKey(context, cle);
  const now = nowSeconds(context.clock);
  requireAlive(stored, now);
  // The same product, domains and limits; the old key answers `regeneration`.
  const domains = stored.domains.map((entry) => entry.domain);
  const fresh = await replace(context, stored, 'regeneration', {
    domains,
    now,
    initiatedBy: initiatorOf(context.principal),
  });
  context.logger.info({ action: 'key.regenerate', hint: stored.hint, newHint: fresh.hint }, 'key regenerated');
  return { cle: fresh.cle };
}

export async function transferKey(context: AdminContext, cle: string, input: TransferInput = {}): Promise<ReplacedKey> {
  const domains = transferDomains(input);
  const stored = await reachKey(context, cle);
  return transferStored(context, stored, domains, initiatorOf(context.principal));
}

/** What a transfer moves: `from` and `to` as registrable domains (`rules.transferDomain`), null when absent. */
export interface TransferDomains {
  readonly from: string | null;
  readonly to: string | null;
}

/** `from` and `to` of a transfer, checked and normalised; `INVALID_FIELD` for a bad one. */
export function transferDomains(input: TransferInput): TransferDomains {
  return {
    from: input.from === undefined ? null : rules.transferDomain('from', input.from),
    to: input.to === undefined ? null : rules.transferDomain('to', input.to),
  };
}

/**
 * Transfers the key `stored` (docs/protocol.md#key-lifecycle): `KEY_NOT_ALIVE` when it is no longer
 * alive (or stops being so before the write: of two transfers at once, one wins), `DOMAIN_NOT_BOUND`
 * for a `from` it is not bound to, `TOO_MANY_DOMAINS` beyond its allowance. `initiatedBy` goes into
 * the `key.transferred` event and the old key's `endedBy`.
 */
export async function transferStored(
  context: KeyAdminOptions,
  stored: StoredKey,
  { from, to }: TransferDomains,
  initiatedBy: WebhookInitiator,
): Promise<ReplacedKey> {
  const now = nowSeconds(context.clock);
  requireAlive(stored, now);
  const bound = stored.domains.map((entry) => entry.domain);
  if (from !== null && !bound.includes(from)) throw adminError('DOMAIN_NOT_BOUND', stored.hint, from);
  // The old domains minus `from`, plus `to`, in binding order.
  const domains = bound.filter((domain) => domain !== from);
  if (to !== null && !domains.includes(to)) domains.push(to);
  if (domains.length > stored.sites) {
    throw adminError('TOO_MANY_DOMAINS', stored.hint, stored.sites, to ?? 'the new domain', domains.length);
  }
  const fresh = await replace(context, stored, 'transfert', { domains, now, initiatedBy });
  context.logger.info(
    { action: 'key.transfer', hint: stored.hint, newHint: fresh.hint, from, to, initiatedBy },
    'key transferred',
  );
  return { cle: fresh.cle };
}
