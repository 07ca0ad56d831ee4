import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { toAuthorTokenRecord } from './rows.js';
import type { AuthorTokenRow } from './rows.js';

const TOKEN_COLUMNS = 'id, author_id, label, created_at, last_used_at';

function tokenStatements(db: Database.Database) {
  return {
    // One statement: the author's existence and the insert cannot interleave with another
    // process's writes, and an unknown author inserts nothing ('no-author').
    insert: db.prepare<[string, string, string, string | null, number, string]>(
      'INSERT INTO author_tokens (id, author_id, hash, label, created_at) ' +
        'SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM authors WHERE id = ?)',
    ),
    // Walks the index author_tokens_author (migration step 3).
    ofAuthor: db.prepare<[string], AuthorTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM author_tokens WHERE author_id = ? ORDER BY created_at, id`,
    ),
    byHash: db.prepare<[string], AuthorTokenRow>(`SELECT ${TOKEN_COLUMNS} FROM author_tokens WHERE hash = ?`),
    remove: db.prepare<[string, string]>('DELETE FROM author_tokens WHERE id = ? AND author_id = ?'),
    touch: db.prepare<[number, string]>('UPDATE author_tokens SET last_used_at = ? WHERE id = ?'),
  };
}

/**
 * Author tokens (docs/protocol.md#authors): SHA-256 of each token, never the token; the hash is
 * only ever a lookup key and is never read back. A token is deleted only through its own author.
 */
export function authorTokens(
  db: Database.Database,
): Pick<Store, 'addAuthorToken' | 'listAuthorTokens' | 'deleteAuthorToken' | 'findAuthorToken' | 'touchAuthorToken'> {
  const sql = tokenStatements(db);
  return {
    async addAuthorToken(token) {
      const { id, authorId, hash, label, createdAt } = token;
      const info = sql.insert.run(id, authorId, hash, label, createdAt, authorId);
      return info.changes > 0 ? { result: 'created', id } : { result: 'no-author' };
    },
    async listAuthorTokens(authorId) {
      return sql.ofAuthor.all(authorId).map(toAuthorTokenRecord);
    },
    async deleteAuthorToken(authorId, tokenId) {
      return sql.remove.run(tokenId, authorId).changes > 0;
    },
    async findAuthorToken(hash) {
      const row = sql.byHash.get(hash);
      return row === undefined ? null : toAuthorTokenRecord(row);
    },
    async touchAuthorToken(tokenId, now) {
      sql.touch.run(now, tokenId);
    },
  };
}
