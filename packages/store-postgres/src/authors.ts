import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { readWholeSeconds } from './rows.js';

interface AuthorRow {
  readonly id: string;
  readonly name: string;
  /** int8, so a decimal string. */
  readonly created_at: string;
}

const AUTHOR_COLUMNS = 'SELECT id, name, created_at FROM authors';

function toAuthorRecord(row: AuthorRow): Store.AuthorRecord {
  return { id: row.id, name: row.name, createdAt: readWholeSeconds('authors.created_at', row.created_at) };
}

/**
 * Authors (docs/protocol.md#authors): created once, by id, never changed. An author owns the
 * products whose `author` is its id, those created before it included, so nothing here touches
 * products.
 */
export function authorRecords(query: Query): Pick<Store, 'addAuthor' | 'getAuthor' | 'listAuthors'> {
  return {
    async addAuthor(author) {
      // RETURNING tells a new row from a taken id in one statement, whatever another process
      // inserted meanwhile.
      const rows = await query<{ id: string }>(
        'INSERT INTO authors (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id',
        [author.id, author.name, author.createdAt],
      );
      return rows.length === 1 ? { result: 'created', id: author.id } : { result: 'exists' };
    },

    async getAuthor(id) {
      const row = (await query<AuthorRow>(`${AUTHOR_COLUMNS} WHERE id = $1`, [id]))[0];
      return row === undefined ? null : toAuthorRecord(row);
    },

    async listAuthors() {
      // Byte order whatever the database's locale, as the SQLite store lists them.
      return (await query<AuthorRow>(`${AUTHOR_COLUMNS} ORDER BY id COLLATE "C"`)).map(toAuthorRecord);
    },
  };
}
