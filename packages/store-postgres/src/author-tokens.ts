import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { readWholeSeconds } from './rows.js';

/** A token as listed: never its hash (ports.ts, Store.AuthorTokenRecord). Times are int8 strings. */
interface AuthorTokenRow {
  readonly id: string;
  readonly author_id: string;
  readonly label: string | null;
  readonly created_at: string;
  readonly last_used_at: string | null;
}

const TOKEN_COLUMNS = 'SELECT id, author_id, label, created_at, last_used_at FROM author_tokens';

function toAuthorTokenRecord(row: AuthorTokenRow): Store.AuthorTokenRecord {
  return {
    id: row.id,
    authorId: row.author_id,
    label: row.label,
    createdAt: readWholeSeconds('author_tokens.created_at', row.created_at),
    lastUsedAt: row.last_used_at === null ? null : readWholeSeconds('author_tokens.last_used_at', row.last_used_at),
  };
}

/**
 * Author tokens (docs/protocol.md#authors), stored as SHA-256 (hex) only: the token itself never
 * reaches the database, and no error or log line here names a hash.
 */
export function authorTokens(
  query: Query,
): Pick<Store, 'addAuthorToken' | 'listAuthorTokens' | 'deleteAuthorToken' | 'findAuthorToken' | 'touchAuthorToken'> {
  return {
    async addAuthorToken(token) {
      // One statement: no row when the author is unknown. Authors are never deleted, so the
      // foreign key is only the backstop.
      const rows = await query<{ id: string }>(
        'INSERT INTO author_tokens (id, author_id, hash, label, created_at) ' +
          'SELECT $1, a.id, $3, $4, $5 FROM authors a WHERE a.id = $2 RETURNING id',
        [token.id, token.authorId, token.hash, token.label, token.createdAt],
      );
      return rows.length === 1 ? { result: 'created', id: token.id } : { result: 'no-author' };
    },

    async listAuthorTokens(authorId) {
      // Oldest first, then by id in byte order (as the SQLite store), whatever the locale.
      const rows = await query<AuthorTokenRow>(
        `${TOKEN_COLUMNS} WHERE author_id = $1 ORDER BY created_at, id COLLATE "C"`,
        [authorId],
      );
      return rows.map(toAuthorTokenRecord);
    },

    async deleteAuthorToken(authorId, tokenId) {
      // Scoped to the author: another author's token id deletes nothing (docs/protocol.md#authors).
      const rows = await query<{ id: string }>(
        'DELETE FROM author_tokens WHERE id = $1 AND author_id = $2 RETURNING id',
        [tokenId, authorId],
      );
      return rows.length === 1;
    },

    async findAuthorToken(hash) {
      const row = (
        await query<AuthorTokenRow>({ name: 'licence_author_token', text: `${TOKEN_COLUMNS} WHERE hash = $1` }, [hash])
      )[0];
      return row === undefined ? null : toAuthorTokenRecord(row);
    },

    async touchAuthorToken(tokenId, now) {
      await query('UPDATE author_tokens SET last_used_at = $2 WHERE id = $1', [tokenId, now]);
    },
  };
}
