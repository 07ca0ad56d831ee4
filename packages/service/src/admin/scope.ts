import { adminError } from './errors.js';
import { findKey, callOrStoreUnavailable } from './keys.js';
import * as rules from './rules.js';
import type { KeyAdminOptions, Principal } from './types.js';
import type { AuthorRecord, ProductRecord, StoredKey, WebhookEndpointRecord } from '../ports/index.js';
import { WEBHOOK_ENDPOINT_PREFIX } from '../webhooks/index.js';

/**
 * Who may reach what (docs/protocol.md#authors), in this one place: the operator reaches
 * everything; an author token reaches the products whose `author` is its author, and the keys of
 * those products. Another author's product or key is refused exactly as a missing one is (a 404
 * whose message names what was asked), so that a token never learns what exists beyond its own;
 * what only the operator may do, and a product or a webhook made for another author, are a 403.
 * Webhook endpoints (docs/protocol.md#webhooks) follow the same rule: an author token reaches the
 * endpoints of its author; another author's, and one that receives every author's events (`author`
 * null, the operator's), are the 404 of a missing one.
 */

/** Key administration's inputs plus who is asking: what every scoped operation gets. */
export interface AdminContext extends KeyAdminOptions {
  readonly principal: Principal;
  /** KeyAdminOptions `webhooksPerAuthor`, checked; 10 when unset. */
  readonly webhooksPerAuthor: number;
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

/** The product `productId` (already checked), when the principal reaches it; else `PRODUCT_NOT_FOUND`. */
export async function reachProduct(context: AdminContext, productId: string): Promise<ProductRecord> {
  const product = await callOrStoreUnavailable(() => context.store.getProduct(productId));
  if (product === null || !reaches(context.principal, product)) throw adminError('PRODUCT_NOT_FOUND', productId);
  return product;
}

/** The key `cle` names, when the principal reaches its product; else `KEY_NOT_FOUND`. */
export async function reachKey(context: AdminContext, cle: string): Promise<StoredKey> {
  const stored = await findKey(context.store, cle);
  if (context.principal.role === 'operator') return stored;
  const product = await callOrStoreUnavailable(() => context.store.getProduct(stored.produit));
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
  const author = await callOrStoreUnavailable(() => context.store.getAuthor(id));
  if (author === null) throw adminError('AUTHOR_NOT_FOUND', id);
  return author;
}

/**
 * The author of a new webhook endpoint (docs/protocol.md#webhooks): the operator names one, or none
 * (null: every author's events; whether a named one exists, the store says); an author token's
 * endpoint is its own author's, named or left out, and `OTHER_AUTHOR_WEBHOOK` for any other.
 * `given` is already checked.
 */
export function webhookAuthor(principal: Principal, given: string | undefined): string | null {
  if (principal.role === 'operator') return given ?? null;
  if (given !== undefined && given !== principal.author) throw adminError('OTHER_AUTHOR_WEBHOOK', principal.author);
  return principal.author;
}

/** What an id made by webhooks/ids.ts looks like; anything else is not repeated in a message. */
export function shownId(prefix: string, id: string): string | null {
  return id.startsWith(prefix) && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/** The endpoint `id`, when the principal reaches it; else `WEBHOOK_NOT_FOUND`, as for a missing one. */
export async function reachWebhook(context: AdminContext, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await callOrStoreUnavailable(() => context.store.getWebhookEndpoint(id));
  const { principal } = context;
  if (endpoint === null || (principal.role === 'author' && endpoint.author !== principal.author)) {
    throw adminError('WEBHOOK_NOT_FOUND', shownId(WEBHOOK_ENDPOINT_PREFIX, id));
  }
  return endpoint;
}
