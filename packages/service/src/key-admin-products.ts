import { adminError } from './admin-errors.js';
import { domainView, fromStore } from './key-admin-keys.js';
import * as rules from './key-admin-rules.js';
import type { InstallationsView, KeyAdminOptions, ProductInput, ProductView } from './key-admin-types.js';
import { nowSeconds } from './service-context.js';

/** Products (docs/protocol.md#key-lifecycle): adding one, and listing its installations. */

export async function addProduct(options: KeyAdminOptions, input: ProductInput): Promise<ProductView> {
  const { store, clock, logger } = options;
  const id = rules.slug('id', input.id);
  const author = rules.text('author', input.author);
  const name = rules.text('name', input.name);
  const result = await fromStore(() => store.addProduct({ id, author, name, createdAt: nowSeconds(clock) }));
  if (result.result === 'exists') throw adminError('PRODUCT_EXISTS', id);
  logger.info({ action: 'product.add', produit: id }, 'product added');
  return { id, author, name };
}

export async function installations(options: KeyAdminOptions, productId: string): Promise<InstallationsView> {
  const { store } = options;
  const id = rules.slug('id', productId);
  const product = await fromStore(() => store.getProduct(id));
  if (product === null) throw adminError('PRODUCT_NOT_FOUND', id);
  const rows = await fromStore(() => store.installations(id));
  const keys = rows.map((row) => ({
    hint: row.hint,
    kind: row.kind,
    status: row.status,
    domains: row.domains.map(domainView),
  }));
  // Installations are the domains of active keys: an old key of a transfer or regeneration
  // still lists the domains its successor carries, and must not count them twice. (The port's
  // Installation carries no trial end, so a trial past its end still counts here.)
  const count = rows.filter((row) => row.status === 'active').reduce((sum, row) => sum + row.domains.length, 0);
  return { produit: id, count, keys };
}
