import type { MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

/** A frozen copy, its staging list included: a caller can never change the store behind its back. */
function frozenProduct(product: Store.ProductRecord): Store.ProductRecord {
  return Object.freeze({ ...product, staging: Object.freeze([...product.staging]) });
}

/**
 * The memory store's products, kept as frozen records; an update replaces the record. A product's
 * author is an id, not a link to an author record (docs/protocol.md#authors).
 */
export function memoryProducts(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'addProduct' | 'getProduct' | 'updateProduct' | 'listProducts'> {
  return {
    addProduct: (product) =>
      run(() => {
        if (state.products.has(product.id)) return { result: 'exists' as const };
        state.products.set(product.id, frozenProduct(product));
        return { result: 'created' as const, id: product.id };
      }),

    getProduct: (id) => run(() => state.products.get(id) ?? null),
    updateProduct: (id, change) =>
      run(() => {
        const product = state.products.get(id);
        if (product === undefined) return null;
        const updated = frozenProduct({
          ...product,
          name: change.name ?? product.name,
          staging: change.staging ?? product.staging,
        });
        state.products.set(id, updated);
        return updated;
      }),
    listProducts: (author) =>
      run(() =>
        [...state.products.values()]
          .filter((product) => author === null || product.author === author)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      ),
  };
}
