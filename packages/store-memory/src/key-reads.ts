import { frozenDomains } from './state.js';
import type { MemoryKeyRow, MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

function productsOf(state: MemoryState, row: MemoryKeyRow): string[] {
  if (row.kind !== 'dev') return [row.produit];
  // docs/protocol.md#key-lifecycle: a development key opens every product of its author.
  const author = state.products.get(row.produit)?.author;
  if (author === undefined) return [row.produit];
  return [...state.products.values()].filter((product) => product.author === author).map((product) => product.id);
}

function toStored(state: MemoryState, row: MemoryKeyRow): Store.StoredKey {
  return Object.freeze({
    id: row.id,
    hash: row.hash,
    hint: row.hint,
    produit: row.produit,
    kind: row.kind,
    status: row.status,
    sites: row.sites,
    expiresAt: row.expiresAt,
    endedAt: row.endedAt,
    reason: row.reason,
    replacedBy: row.replacedBy,
    createdAt: row.createdAt,
    products: Object.freeze(productsOf(state, row)),
    domains: Object.freeze(frozenDomains(row)),
    lineage: row.lineage,
    endedBy: row.endedBy,
    // Records are frozen, their staging arrays included (memory-products.ts).
    staging: state.products.get(row.produit)?.staging ?? Object.freeze([]),
  });
}

function toInstallation(row: MemoryKeyRow): Store.Installation {
  return Object.freeze({
    keyId: row.id,
    hint: row.hint,
    kind: row.kind,
    status: row.status,
    domains: Object.freeze(frozenDomains(row)),
  });
}

/** The memory store's key lookups: fresh frozen records, a null for an unknown key. */
export function memoryKeyReads(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'findKeyByHash' | 'findKeyById' | 'installations'> {
  const found = (id: string | undefined): Store.StoredKey | null => {
    const row = id === undefined ? undefined : state.keys.get(id);
    return row === undefined ? null : toStored(state, row);
  };
  return {
    findKeyByHash: (hash) => run(() => found(state.byHash.get(hash))),
    findKeyById: (id) => run(() => found(id)),
    installations: (productId) =>
      run(() => [...state.keys.values()].filter((row) => row.produit === productId).map(toInstallation)),
  };
}
