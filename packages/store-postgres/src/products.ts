import type pg from 'pg';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

const PRODUCT_COLUMNS = 'SELECT id, author, name, created_at FROM products';

/** Products (docs/protocol.md#key-lifecycle): created once, by id; listed by author. */
export function productRecords(pool: pg.Pool, query: Query): Pick<Store, 'addProduct' | 'getProduct' | 'listProducts'> {
  return {
    async addProduct(product) {
      const result = await pool.query(
        'INSERT INTO products (id, author, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [product.id, product.author, product.name, product.createdAt],
      );
      return result.rowCount === 1 ? { result: 'created', id: product.id } : { result: 'exists' };
    },

    async getProduct(id) {
      const row = (await query<ProductRow>(`${PRODUCT_COLUMNS} WHERE id = $1`, [id]))[0];
      return row === undefined ? null : toProductRecord(row);
    },

    async listProducts(author) {
      // Two statements rather than `$1 IS NULL OR author = $1`, so each has its own plan: the
      // author's list is a range of products_author (migration step 1). COLLATE "C": ids in byte
      // order, as the SQLite store lists them, whatever the database's locale.
      const rows =
        author === null
          ? await query<ProductRow>(`${PRODUCT_COLUMNS} ORDER BY id COLLATE "C"`)
          : await query<ProductRow>(`${PRODUCT_COLUMNS} WHERE author = $1 ORDER BY id COLLATE "C"`, [author]);
      return rows.map(toProductRecord);
    },
  };
}
