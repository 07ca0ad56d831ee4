import type { MemoryKeyRow, MemoryRun, MemoryState } from './state.js';
import { checkWebhookEvents, storeWebhookEvents } from './webhook-events.js';
import type { Store } from '@licence/service';

/**
 * Stores a new active key; a hash already stored is a bug of the caller (keys are random). Its
 * lineage is `lineage` (a replacement's: the old key's), else its own id.
 */
function insertRow(
  state: MemoryState,
  key: Store.NewKey,
  domains: readonly Store.BoundDomain[],
  lineage: string | null = null,
): MemoryKeyRow {
  if (state.byHash.has(key.hash)) throw new Error('memory store: a key with this hash already exists');
  const id = String(state.nextId);
  const row: MemoryKeyRow = {
    id,
    hash: key.hash,
    hint: key.hint,
    produit: key.produit,
    kind: key.kind,
    status: 'active',
    sites: key.sites,
    expiresAt: key.expiresAt,
    endedAt: null,
    reason: null,
    replacedBy: null,
    createdAt: key.createdAt,
    domains: domains.map((domain) => ({ ...domain })),
    lineage: lineage ?? id,
    endedBy: null,
  };
  state.nextId += 1;
  state.keys.set(row.id, row);
  state.byHash.set(row.hash, row.id);
  return row;
}

/** docs/protocol.md#key-lifecycle: one live development key per product. */
function hasLiveDevKey(state: MemoryState, produit: string): boolean {
  for (const row of state.keys.values()) {
    if (row.produit === produit && row.kind === 'dev' && row.status === 'active') return true;
  }
  return false;
}

/**
 * The new key's domains, each listed once at its first place; a domain the old key had keeps its
 * first and last seen (docs/protocol.md#key-lifecycle: a transfer carries the bindings over).
 */
function carriedDomains(old: MemoryKeyRow | null, domains: readonly string[], now: number): Store.BoundDomain[] {
  const carried = new Map(old?.domains.map((entry) => [entry.domain, entry]));
  return [...new Set(domains)].map((domain) => {
    const kept = carried.get(domain);
    return kept === undefined ? { domain, firstSeen: now, lastSeen: now } : { ...kept };
  });
}

/**
 * The memory store's key lifecycle (docs/protocol.md#key-lifecycle): issue, replace, revoke. The
 * webhook events of a change are checked before it and stored with it, on success only
 * (docs/protocol.md#webhooks: the outbox).
 */
export function memoryKeyWrites(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'insertKey' | 'replaceKey' | 'countBuyerTransfers' | 'revokeKey'> {
  return {
    insertKey: (key, domains = [], events = []) =>
      run(() => {
        checkWebhookEvents(state, events);
        if (!state.products.has(key.produit)) return { result: 'no-product' as const };
        if (key.kind === 'dev' && hasLiveDevKey(state, key.produit)) return { result: 'dev-exists' as const };
        const row = insertRow(state, key, carriedDomains(null, domains, key.createdAt));
        storeWebhookEvents(state, events);
        return { result: 'created' as const, id: row.id };
      }),

    replaceKey: (oldId, status, newKey, domains, now, events = [], initiatedBy) =>
      run(() => {
        checkWebhookEvents(state, events);
        const old = state.keys.get(oldId);
        if (old === undefined || old.status !== 'active') return { result: 'not-active' as const };
        const row = insertRow(state, newKey, carriedDomains(old, domains, now), old.lineage);
        old.status = status;
        old.endedAt = now;
        old.replacedBy = row.id;
        old.endedBy = initiatedBy ?? null;
        storeWebhookEvents(state, events);
        return { result: 'created' as const, id: row.id };
      }),

    // docs/protocol.md#buyer-links: a scan is fine for a store that holds a test's keys.
    countBuyerTransfers: (lineage, since) =>
      run(() => {
        let count = 0;
        for (const row of state.keys.values()) {
          const counted =
            row.lineage === lineage &&
            row.status === 'transfert' &&
            row.endedBy === 'buyer' &&
            row.endedAt !== null &&
            row.endedAt >= since;
          if (counted) count += 1;
        }
        return count;
      }),

    revokeKey: (id, reason, now, events = []) =>
      run(() => {
        checkWebhookEvents(state, events);
        const row = state.keys.get(id);
        if (row === undefined || row.status !== 'active') return 'not-active' as const;
        row.status = 'revocation';
        row.endedAt = now;
        row.reason = reason;
        storeWebhookEvents(state, events);
        return 'revoked' as const;
      }),
  };
}
