import type pg from 'pg';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

/** Products (docs/protocol.md#key-lifecycle): created once, by id. */
export function productRecords(pool: pg.Pool, query: Query): Pick<Store, 'addProduct' | 'getProduct'> {
  return {
    async addProduct(product) {
      const result = await pool.query(
        'INSERT INTO products (id, author, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [product.id, product.author, product.name, product.createdAt],
      );
      return result.rowCount === 1 ? { result: 'created', id: product.id } : { result: 'exists' };
    },

    async getProduct(id) {
      const row = (await query<ProductRow>('SELECT id, author, name, created_at FROM products WHERE id = $1', [id]))[0];
      return row === undefined ? null : toProductRecord(row);
    },
  };
}
