import { adminError } from './errors.js';
import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, reachAuthor } from './scope.js';

/**
 * `DELETE /admin/authors/:id/tokens/:tokenId` (docs/protocol.md#authors): the token is deleted, and
 * its next request is a 401 (authentication reads the store every time, nothing is cached). A
 * token may delete itself.
 */
export async function revokeAuthorToken(context: AdminContext, authorId: string, tokenId: string): Promise<void> {
  const author = await reachAuthor(context, authorId);
  const deleted = await callOrStoreUnavailable(() => context.store.deleteAuthorToken(author.id, tokenId));
  if (!deleted) throw adminError('TOKEN_NOT_FOUND', author.id);
  context.logger.info({ action: 'author-token.revoke', author: author.id, tokenId }, 'author token revoked');
}
