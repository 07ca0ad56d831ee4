import { adminError } from './errors.js';
import { newAuthorToken } from './author-token.js';
import { callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, reachAuthor } from './scope.js';
import type { NewTokenView, TokenInput } from './types.js';
import { nowSeconds } from '../http/index.js';

/**
 * `POST /admin/authors/:id/tokens` (docs/protocol.md#authors): a new token of the author, by the
 * operator or by that author's own token. The token is in this answer only; the store keeps its
 * SHA-256, and the log its id.
 */
export async function createAuthorToken(
  context: AdminContext,
  authorId: string,
  input: TokenInput = {},
): Promise<NewTokenView> {
  const label = rules.label(input.label);
  const author = await reachAuthor(context, authorId);
  const { id, token, hash } = newAuthorToken(context.random);
  const record = { id, authorId: author.id, hash, label, createdAt: nowSeconds(context.clock) };
  const result = await callOrStoreUnavailable(() => context.store.addAuthorToken(record));
  if (result.result === 'no-author') throw adminError('AUTHOR_NOT_FOUND', author.id);
  context.logger.info({ action: 'author-token.create', author: author.id, tokenId: id }, 'author token created');
  return { id, token };
}
