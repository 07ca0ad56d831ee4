import { adminError } from './admin-errors.js';
import { findKey, fromStore } from './key-admin-keys.js';
import * as rules from './key-admin-rules.js';
import type { KeyAdminOptions, Principal } from './key-admin-types.js';
import type { AuthorRecord, ProductRecord, StoredKey } from './ports.js';

/**
 * Who may reach what (docs/protocol.md#authors), in this one place: the operator reaches
 * everything; an author token reaches the products whose `author` is its author, and the keys of
 * those products. Another author's product or key is refused exactly as a missing one is (a 404
 * whose message names what was asked), so that a token never learns what exists beyond its own;
 * what only the operator may do, and a product made for another author, are a 403.
 */

/** Key administration's inputs plus who is asking: what every scoped operation gets. */
export interface AdminContext extends KeyAdminOptions {
  readonly principal: Principal;
}

/** Whether `principal` reaches `product`. */
export function reaches(principal: Principal, product: Pick<ProductRecord, 'author'>): boolean {
  return principal.role === 'operator' || product.author === principal.author;
}

/** The author whose products `principal` lists: null for every product (the operator). */
export function authorFilter(principal: Principal): string | null {
  return principal.role === 'operator' ? null : principal.author;
}

/** Throws `OPERATOR_ONLY` unless the operator asks; `operation` names it in the message. */
export function requireOperator(principal: Principal, operation: string): void {
  if (principal.role !== 'operator') throw adminError('OPERATOR_ONLY', operation);
}

/** The product `id` (already checked), when the principal reaches it; else `PRODUCT_NOT_FOUND`. */
export async function reachProduct(context: AdminContext, id: string): Promise<ProductRecord> {
  const product = await fromStore(() => context.store.getProduct(id));
  if (product === null || !reaches(context.principal, product)) throw adminError('PRODUCT_NOT_FOUND', id);
  return product;
}

/** The key `cle` names, when the principal reaches its product; else `KEY_NOT_FOUND`. */
export async function reachKey(context: AdminContext, cle: string): Promise<StoredKey> {
  const stored = await findKey(context.store, cle);
  if (context.principal.role === 'operator') return stored;
  const product = await fromStore(() => context.store.getProduct(stored.produit));
  if (product === null || !reaches(context.principal, product)) throw adminError('KEY_NOT_FOUND', stored.hint);
  return stored;
}

/**
 * The author of a new product: the operator names one (`author: is required` otherwise); an author
 * token makes products of its own author, named or left out, and `OTHER_AUTHOR` for any other.
 * `given` is already checked.
 */
export function productAuthor(principal: Principal, given: string | undefined): string {
  if (principal.role === 'operator') {
    if (given === undefined) throw adminError('INVALID_FIELD', 'author', 'is required');
    return given;
  }
  if (given !== undefined && given !== principal.author) throw adminError('OTHER_AUTHOR', principal.author);
  return principal.author;
}

/**
 * The author `authorId` names (the rule of a product's `author`), when the principal may manage its
 * tokens: the operator, or that author's own token. Another author is `AUTHOR_NOT_FOUND`, as a
 * missing one.
 */
export async function reachAuthor(context: AdminContext, authorId: string): Promise<AuthorRecord> {
  const id = rules.text('id', authorId);
  const { principal } = context;
  if (principal.role === 'author' && principal.author !== id) throw adminError('AUTHOR_NOT_FOUND', id);
  const author = await fromStore(() => context.store.getAuthor(id));
  if (author === null) throw adminError('AUTHOR_NOT_FOUND', id);
  return author;
}
