import type pg from 'pg';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { PRODUCT_COLUMNS, toProductRecord } from './rows.js';
import type { ProductRow } from './rows.js';

const SELECT_PRODUCTS = `SELECT ${PRODUCT_COLUMNS} FROM products`;

/**
 * Products (docs/protocol.md#key-lifecycle): created once, by id; listed by author; `updateProduct`
 * changes the name and the staging patterns (docs/protocol.md#staging-hosts).
 */
export function productRecords(
  pool: pg.Pool,
  query: Query,
): Pick<Store, 'addProduct' | 'getProduct' | 'updateProduct' | 'listProducts'> {
  return {
    async addProduct(product) {
      const result = await pool.query(
        'INSERT INTO products (id, author, name, created_at, staging) VALUES ($1, $2, $3, $4, $5::text[]) ' +
          'ON CONFLICT (id) DO NOTHING',
        [product.id, product.author, product.name, product.createdAt, [...product.staging]],
      );
      return result.rowCount === 1 ? { result: 'created', id: product.id } : { result: 'exists' };
    },

    async getProduct(id) {
      const row = (await query<ProductRow>(`${SELECT_PRODUCTS} WHERE id = $1`, [id]))[0];
      return row === undefined ? null : toProductRecord(row);
    },

    async updateProduct(id, change) {
      // One statement: the change and the product as now stored, NULL keeping a column as it is.
      const staging = change.staging === undefined ? null : [...change.staging];
      const rows = await query<ProductRow>(
        'UPDATE products SET name = coalesce($2, name), staging = coalesce($3::text[], staging) WHERE id = $1 ' +
          `RETURNING ${PRODUCT_COLUMNS}`,
        [id, change.name ?? null, staging],
      );
      const row = rows[0];
      return row === undefined ? null : toProductRecord(row);
    },

    async listProducts(author) {
      // Two statements rather than `$1 IS NULL OR author = $1`, so each has its own plan: the
      // author's list is a range of products_author (migration step 1). COLLATE "C": ids in byte
      // order, as the SQLite store lists them, whatever the database's locale.
      const rows =
        author === null
          ? await query<ProductRow>(`${SELECT_PRODUCTS} ORDER BY id COLLATE "C"`)
          : await query<ProductRow>(`${SELECT_PRODUCTS} WHERE author = $1 ORDER BY id COLLATE "C"`, [author]);
      return rows.map(toProductRecord);
    },
  };
}
