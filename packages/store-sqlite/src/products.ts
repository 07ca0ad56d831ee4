import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

/** Products (docs/protocol.md#key-lifecycle): created once, by id. */
export function productRecords(db: Database.Database): Pick<Store, 'addProduct' | 'getProduct'> {
  const insert = db.prepare<[string, string, string, number]>(
    'INSERT INTO products (id, author, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const byId = db.prepare<[string], ProductRow>('SELECT id, author, name, created_at FROM products WHERE id = ?');
  return {
    async addProduct(product) {
      const info = insert.run(product.id, product.author, product.name, product.createdAt);
      return info.changes > 0 ? { result: 'created', id: product.id } : { result: 'exists' };
    },
    async getProduct(id) {
      const row = byId.get(id);
      return row === undefined ? null : toProductRecord(row);
    },
  };
}
