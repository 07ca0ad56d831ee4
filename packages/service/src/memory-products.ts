import type { MemoryRun, MemoryState } from './memory-state.js';
import type { Store } from './ports.js';

/**
 * The memory store's products: created once, kept as frozen records. A product's author is an id,
 * not a link to an author record (docs/protocol.md#authors).
 */
export function memoryProducts(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'addProduct' | 'getProduct' | 'listProducts'> {
  return {
    addProduct: (product) =>
      run(() => {
        if (state.products.has(product.id)) return { result: 'exists' as const };
        state.products.set(product.id, Object.freeze({ ...product }));
        return { result: 'created' as const, id: product.id };
      }),

    getProduct: (id) => run(() => state.products.get(id) ?? null),
    listProducts: (author) =>
      run(() =>
        [...state.products.values()]
          .filter((product) => author === null || product.author === author)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      ),
  };
}
