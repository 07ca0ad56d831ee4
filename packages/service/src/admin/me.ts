import { adminError } from './errors.js';
import { authorView } from './author-views.js';
import { callOrStoreUnavailable } from './keys.js';
import type { AdminContext } from './scope.js';
import type { MeView } from './types.js';

/**
 * `GET /admin/me` (docs/protocol.md#authors): who the token is, so that the console shows what it
 * may do. An author token's author is kept while it has tokens; `AUTHOR_NOT_FOUND` only if a store
 * lost it.
 */
export async function me(context: AdminContext): Promise<MeView> {
  const { principal } = context;
  if (principal.role === 'operator') return { role: 'operator' };
  const author = await callOrStoreUnavailable(() => context.store.getAuthor(principal.author));
  if (author === null) throw adminError('AUTHOR_NOT_FOUND', principal.author);
  return { role: 'author', author: authorView(author) };
}
