import { formatQuand } from '@licence/core';
import type { AuthorView, TokenView } from './types.js';
import type { AuthorRecord, AuthorTokenRecord } from '../ports/index.js';

/** Authors and their tokens as the admin API shows them (docs/protocol.md#authors): ISO 8601 times. */

export const authorView = (author: AuthorRecord): AuthorView => ({
  id: author.id,
  name: author.name,
  created: formatQuand(author.createdAt),
});

/** Never the token nor its hash: the store does not hand them out. */
export const tokenView = (token: AuthorTokenRecord): TokenView => ({
  id: token.id,
  label: token.label,
  created: formatQuand(token.createdAt),
  lastUsed: token.lastUsedAt === null ? null : formatQuand(token.lastUsedAt),
});
