import type { MemoryRun, MemoryState } from './memory-state.js';
import type { Store } from './ports.js';

/** The memory store's products: created once, kept as frozen records. */
export function memoryProducts(state: MemoryState, run: MemoryRun): Pick<Store, 'addProduct' | 'getProduct'> {
  return {
    addProduct: (product) =>
      run(() => {
        if (state.products.has(product.id)) return { result: 'exists' as const };
        state.products.set(product.id, Object.freeze({ ...product }));
        return { result: 'created' as const, id: product.id };
      }),

    getProduct: (id) => run(() => state.products.get(id) ?? null),
  };
}
