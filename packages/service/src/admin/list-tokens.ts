import { tokenView } from './author-views.js';
import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, reachAuthor } from './scope.js';
import type { TokenView } from './types.js';

/**
 * `GET /admin/authors/:id/tokens` (docs/protocol.md#authors): the author's tokens, oldest first, by
 * id, label and times; never a token nor its hash.
 */
export async function listAuthorTokens(
  context: AdminContext,
  authorId: string,
): Promise<{ readonly tokens: readonly TokenView[] }> {
  const author = await reachAuthor(context, authorId);
  const tokens = await callOrStoreUnavailable(() => context.store.listAuthorTokens(author.id));
  return { tokens: tokens.map(tokenView) };
}
