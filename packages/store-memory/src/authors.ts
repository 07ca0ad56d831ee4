import type { MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

function byId<T extends { readonly id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The memory store's authors (docs/protocol.md#authors): created once, kept as frozen records.
 * Products point at an author by id only, so an author created after its products owns them.
 */
export function memoryAuthors(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'addAuthor' | 'getAuthor' | 'listAuthors'> {
  return {
    addAuthor: (author) =>
      run(() => {
        if (state.authors.has(author.id)) return { result: 'exists' as const };
        state.authors.set(author.id, Object.freeze({ ...author }));
        return { result: 'created' as const, id: author.id };
      }),
    getAuthor: (id) => run(() => state.authors.get(id) ?? null),
    listAuthors: () => run(() => [...state.authors.values()].sort(byId)),
  };
}
