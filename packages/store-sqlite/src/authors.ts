import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { toAuthorRecord } from './rows.js';
import type { AuthorRow } from './rows.js';

/**
 * Authors (docs/protocol.md#authors): created once, by id. No foreign key points from `products`
 * to them: a product's author is an id, so an author created after its products owns them.
 */
export function authorRecords(db: Database.Database): Pick<Store, 'addAuthor' | 'getAuthor' | 'listAuthors'> {
  const insert = db.prepare<[string, string, number]>(
    'INSERT INTO authors (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const byId = db.prepare<[string], AuthorRow>('SELECT id, name, created_at FROM authors WHERE id = ?');
  const all = db.prepare<[], AuthorRow>('SELECT id, name, created_at FROM authors ORDER BY id');
  return {
    async addAuthor(author) {
      const info = insert.run(author.id, author.name, author.createdAt);
      return info.changes > 0 ? { result: 'created', id: author.id } : { result: 'exists' };
    },
    async getAuthor(id) {
      const row = byId.get(id);
      return row === undefined ? null : toAuthorRecord(row);
    },
    async listAuthors() {
      return all.all().map(toAuthorRecord);
    },
  };
}
