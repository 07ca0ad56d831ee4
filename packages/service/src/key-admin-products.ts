import { adminError } from './admin-errors.js';
import { domainView, fromStore } from './key-admin-keys.js';
import * as rules from './key-admin-rules.js';
import { type AdminContext, productAuthor, reachProduct } from './key-admin-scope.js';
import type { InstallationsView, ProductInput, ProductView } from './key-admin-types.js';
import type { Installation } from './ports.js';
import { nowSeconds } from './service-context.js';

/** Products (docs/protocol.md#key-lifecycle): adding one, and listing its installations. */

export async function addProduct(context: AdminContext, input: ProductInput): Promise<ProductView> {
  const { store, clock, logger } = context;
  const id = rules.slug('id', input.id);
  const given = input.author === undefined ? undefined : rules.text('author', input.author);
  // docs/protocol.md#authors: an author token makes products of its own author only.
  const author = productAuthor(context.principal, given);
  const name = rules.text('name', input.name);
  const result = await fromStore(() => store.addProduct({ id, author, name, createdAt: nowSeconds(clock) }));
  if (result.result === 'exists') throw adminError('PRODUCT_EXISTS', id);
  logger.info({ action: 'product.add', produit: id }, 'product added');
  return { id, author, name };
}

/**
 * A product's installations: the domains bound to its active keys (docs/protocol.md#administration).
 * An old key of a transfer or regeneration still lists the domains its successor carries, and must
 * not count them twice. (The port's Installation carries no trial end, so a trial past its end
 * still counts here.) The one rule of the count, for `installations` and the product list.
 */
export function installationCount(rows: readonly Pick<Installation, 'status' | 'domains'>[]): number {
  return rows.filter((row) => row.status === 'active').reduce((sum, row) => sum + row.domains.length, 0);
}

export async function installations(context: AdminContext, productId: string): Promise<InstallationsView> {
  const id = rules.slug('id', productId);
  await reachProduct(context, id);
  const rows = await fromStore(() => context.store.installations(id));
  const keys = rows.map((row) => ({
    hint: row.hint,
    kind: row.kind,
    status: row.status,
    domains: row.domains.map(domainView),
  }));
  return { produit: id, count: installationCount(rows), keys };
}
