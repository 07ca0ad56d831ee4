import { authorView } from './author-views.js';
import { callOrStoreUnavailable } from './keys.js';
import type { AdminContext } from './scope.js';
import type { AuthorView } from './types.js';

/** `GET /admin/authors` (docs/protocol.md#authors): every author, by id; the operator's alone (its declared scope). */
export async function listAuthors(context: AdminContext): Promise<{ readonly authors: readonly AuthorView[] }> {
  const authors = await callOrStoreUnavailable(() => context.store.listAuthors());
  return { authors: authors.map(authorView) };
}
