import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

/**
 * Products (docs/protocol.md#key-lifecycle): created once, by id. A product's author is an id,
 * joined by value (docs/protocol.md#authors), so the list of one author's products walks the index
 * products_author whether or not an `authors` row exists.
 */
export function productRecords(db: Database.Database): Pick<Store, 'addProduct' | 'getProduct' | 'listProducts'> {
  const insert = db.prepare<[string, string, string, number]>(
    'INSERT INTO products (id, author, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const byId = db.prepare<[string], ProductRow>('SELECT id, author, name, created_at FROM products WHERE id = ?');
  const all = db.prepare<[], ProductRow>('SELECT id, author, name, created_at FROM products ORDER BY id');
  const ofAuthor = db.prepare<[string], ProductRow>(
    'SELECT id, author, name, created_at FROM products WHERE author = ? ORDER BY id',
  );
  return {
    async addProduct(product) {
      const info = insert.run(product.id, product.author, product.name, product.createdAt);
      return info.changes > 0 ? { result: 'created', id: product.id } : { result: 'exists' };
    },
    async getProduct(id) {
      const row = byId.get(id);
      return row === undefined ? null : toProductRecord(row);
    },
    async listProducts(author) {
      return (author === null ? all.all() : ofAuthor.all(author)).map(toProductRecord);
    },
  };
}
