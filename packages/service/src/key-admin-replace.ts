import { adminError } from './admin-errors.js';
import { changedMeanwhile, fromStore, replacementFor, requireAlive } from './key-admin-keys.js';
import * as rules from './key-admin-rules.js';
import { type AdminContext, reachKey } from './key-admin-scope.js';
import type { ReplacedKey, TransferInput } from './key-admin-types.js';
import { nowSeconds } from './service-context.js';

/**
 * Regenerate and transfer (docs/protocol.md#key-lifecycle): a new key replaces a live one, which
 * then answers `regeneration` or `transfert`. The new key, shown this once, keeps the product, the
 * kind and the limits.
 */

export async function regenerateKey(context: AdminContext, cle: string): Promise<ReplacedKey> {
  const { store, clock, random, logger } = context;
  const stored = await reachKey(context, cle);
  const now = nowSeconds(clock);
  requireAlive(stored, now);
  // The same product, domains and limits; the old key answers `regeneration`.
  const replacement = replacementFor(random, stored, now);
  const domains = stored.domains.map((entry) => entry.domain);
  const result = await fromStore(() => store.replaceKey(stored.id, 'regeneration', replacement.key, domains, now));
  if (result.result === 'not-active') throw changedMeanwhile(stored);
  logger.info({ action: 'key.regenerate', hint: stored.hint, newHint: replacement.key.hint }, 'key regenerated');
  return { cle: replacement.cle };
}

export async function transferKey(context: AdminContext, cle: string, input: TransferInput): Promise<ReplacedKey> {
  const { store, clock, random, logger } = context;
  const from = input.from === undefined ? null : rules.transferDomain('from', input.from);
  const to = input.to === undefined ? null : rules.transferDomain('to', input.to);
  const stored = await reachKey(context, cle);
  const now = nowSeconds(clock);
  requireAlive(stored, now);
  const bound = stored.domains.map((entry) => entry.domain);
  if (from !== null && !bound.includes(from)) throw adminError('DOMAIN_NOT_BOUND', stored.hint, from);
  // The old domains minus `from`, plus `to`, in binding order.
  const domains = bound.filter((domain) => domain !== from);
  if (to !== null && !domains.includes(to)) domains.push(to);
  if (domains.length > stored.sites) {
    throw adminError('TOO_MANY_DOMAINS', stored.hint, stored.sites, to ?? 'the new domain', domains.length);
  }
  const replacement = replacementFor(random, stored, now);
  const result = await fromStore(() => store.replaceKey(stored.id, 'transfert', replacement.key, domains, now));
  if (result.result === 'not-active') throw changedMeanwhile(stored);
  logger.info(
    { action: 'key.transfer', hint: stored.hint, newHint: replacement.key.hint, from, to },
    'key transferred',
  );
  return { cle: replacement.cle };
}
