import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { PRODUCT_COLUMNS, toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

/**
 * Products (docs/protocol.md#key-lifecycle): created once, by id; `updateProduct` changes the name
 * and the staging patterns (docs/protocol.md#staging-hosts, kept as a JSON array). A product's
 * author is an id, joined by value (docs/protocol.md#authors), so the list of one author's products
 * walks the index products_author whether or not an `authors` row exists.
 */
export function productRecords(
  db: Database.Database,
): Pick<Store, 'addProduct' | 'getProduct' | 'updateProduct' | 'listProducts'> {
  const insert = db.prepare<[string, string, string, number, string]>(
    'INSERT INTO products (id, author, name, created_at, staging) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const byId = db.prepare<[string], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ?`);
  // One statement: the change and the product as now stored, NULL keeping a column as it is.
  const update = db.prepare<[string | null, string | null, string], ProductRow>(
    'UPDATE products SET name = coalesce(?, name), staging = coalesce(?, staging) WHERE id = ? ' +
      `RETURNING ${PRODUCT_COLUMNS}`,
  );
  const all = db.prepare<[], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products ORDER BY id`);
  const ofAuthor = db.prepare<[string], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products WHERE author = ? ORDER BY id`,
  );
  return {
    async addProduct(product) {
      const staging = JSON.stringify(product.staging);
      const info = insert.run(product.id, product.author, product.name, product.createdAt, staging);
      return info.changes > 0 ? { result: 'created', id: product.id } : { result: 'exists' };
    },
    async getProduct(id) {
      const row = byId.get(id);
      return row === undefined ? null : toProductRecord(row);
    },
    async updateProduct(id, change) {
      const staging = change.staging === undefined ? null : JSON.stringify(change.staging);
      const row = update.get(change.name ?? null, staging, id);
      return row === undefined ? null : toProductRecord(row);
    },
    async listProducts(author) {
      return (author === null ? all.all() : ofAuthor.all(author)).map(toProductRecord);
    },
  };
}
