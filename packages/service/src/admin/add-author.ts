import { adminError } from './errors.js';
import { authorView } from './author-views.js';
import { callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import type { AdminContext } from './scope.js';
import type { AuthorInput, AuthorView } from './types.js';
import { nowSeconds } from '../http/index.js';

/**
 * `POST /admin/authors` (docs/protocol.md#authors), the operator's alone (its declared scope, operations-authors.ts). The id follows the rule of
 * a product's `author`, so that an author added later with the `author` of existing products owns
 * them.
 */
export async function addAuthor(context: AdminContext, input: AuthorInput): Promise<AuthorView> {
  const id = rules.text('id', input.id);
  const name = rules.text('name', input.name);
  const record = { id, name, createdAt: nowSeconds(context.clock) };
  const result = await callOrStoreUnavailable(() => context.store.addAuthor(record));
  if (result.result === 'exists') throw adminError('AUTHOR_EXISTS', id);
  context.logger.info({ action: 'author.add', author: id }, 'author added');
  return authorView(record);
}
