import { callOrStoreUnavailable } from './keys.js';
import { installationCount, productView } from './products.js';
import { type AdminContext, authorFilter } from './scope.js';
import type { ProductSummary } from './types.js';

/**
 * `GET /admin/products` (docs/protocol.md#administration): the products the principal reaches, by
 * id, each with its installation count (the rule of `installations`). One store read per product,
 * one after the other: an author has a handful, and a pool is not flooded for the operator's list.
 */
export async function listProducts(context: AdminContext): Promise<{ readonly products: readonly ProductSummary[] }> {
  const { store } = context;
  const records = await callOrStoreUnavailable(() => store.listProducts(authorFilter(context.principal)));
  const products: ProductSummary[] = [];
  for (const product of records) {
    const rows = await callOrStoreUnavailable(() => store.installations(product.id));
    products.push({ ...productView(product), installations: installationCount(rows) });
  }
  return { products };
}
