import { adminError } from './errors.js';
import { domainView, callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import { type AdminContext, productAuthor, reachProduct } from './scope.js';
import type { InstallationsView, ProductChangeInput, ProductInput, ProductView } from './types.js';
import type { Installation, ProductRecord } from '../ports/index.js';
import { nowSeconds } from '../http/index.js';

/**
 * Products (docs/protocol.md#key-lifecycle): adding one, changing its name or its staging patterns
 * (docs/protocol.md#staging-hosts), and listing its installations.
 */

/** A stored product as the admin API shows it (the list adds each one's installation count). */
export function productView(product: ProductRecord): ProductView {
  return { id: product.id, author: product.author, name: product.name, staging: [...product.staging] };
}

export async function addProduct(context: AdminContext, input: ProductInput): Promise<ProductView> {
  const { store, clock, logger } = context;
  const productId = rules.slug('id', input.id);
  const given = input.author === undefined ? undefined : rules.text('author', input.author);
  // docs/protocol.md#authors: an author token makes products of its own author only.
  const author = productAuthor(context.principal, given);
  const name = rules.text('name', input.name);
  const staging = input.staging === undefined ? [] : rules.staging(input.staging);
  const product: ProductRecord = { id: productId, author, name, createdAt: nowSeconds(clock), staging };
  const result = await callOrStoreUnavailable(() => store.addProduct(product));
  if (result.result === 'exists') throw adminError('PRODUCT_EXISTS', productId);
  logger.info({ action: 'product.add', produit: productId, staging: staging.length }, 'product added');
  return productView(product);
}

/**
 * `PATCH /admin/products/:id`: the fields given replace the stored ones, checked by the rules of a
 * new product's; at least one is given. Another author's product is the 404 of a missing one
 * (docs/protocol.md#authors). The log line counts the patterns; the product's own id is no secret.
 */
export async function updateProduct(
  context: AdminContext,
  rawProductId: string,
  input: ProductChangeInput,
): Promise<ProductView> {
  const productId = rules.slug('id', rawProductId);
  const name = input.name === undefined ? undefined : rules.text('name', input.name);
  const staging = input.staging === undefined ? undefined : rules.staging(input.staging);
  if (name === undefined && staging === undefined) {
    throw adminError('INVALID_FIELD', 'body', 'expected at least one of name, staging');
  }
  await reachProduct(context, productId);
  const change = { ...(name === undefined ? {} : { name }), ...(staging === undefined ? {} : { staging }) };
  const updated = await callOrStoreUnavailable(() => context.store.updateProduct(productId, change));
  // Gone between the two reads: products are never deleted today, but the store may say so.
  if (updated === null) throw adminError('PRODUCT_NOT_FOUND', productId);
  context.logger.info(
    { action: 'product.update', produit: productId, ...(staging === undefined ? {} : { staging: staging.length }) },
    'product updated',
  );
  return productView(updated);
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

export async function installations(context: AdminContext, rawProductId: string): Promise<InstallationsView> {
  const productId = rules.slug('id', rawProductId);
  await reachProduct(context, productId);
  const rows = await callOrStoreUnavailable(() => context.store.installations(productId));
  const keys = rows.map((row) => ({
    hint: row.hint,
    kind: row.kind,
    status: row.status,
    domains: row.domains.map(domainView),
  }));
  return { produit: productId, count: installationCount(rows), keys };
}
