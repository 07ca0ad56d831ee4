import { storedColumn } from '@licence/service';
import type { Store } from '@licence/service';
import { formatRowId } from './row-id.js';

/**
 * A `keys` row as better-sqlite3 returns it (column names of migrations 1 and 5), with its
 * product's `staging` (a JSON array, joined). Twin of KeyRow in store-postgres/src/rows.ts on
 * purpose: the same columns, typed as each driver returns them.
 */
export interface KeyRow {
  readonly id: number;
  readonly hash: string;
  readonly hint: string;
  readonly product_id: string;
  readonly kind: string;
  readonly status: string;
  readonly sites: number;
  readonly expires_at: number | null;
  readonly ended_at: number | null;
  readonly reason: string | null;
  readonly replaced_by: number | null;
  readonly created_at: number;
  /** Backfilled by schema version 5 and written with every key since; read as `coalesce(lineage, id)`. */
  readonly lineage: number;
  readonly ended_by: string | null;
  /** Its product's staging patterns, a JSON array (products.staging). */
  readonly staging: string;
}

export interface DomainRow {
  readonly domain: string;
  readonly first_seen: number;
  readonly last_seen: number;
}

export interface ProductRow {
  readonly id: string;
  readonly author: string;
  readonly name: string;
  readonly created_at: number;
  /** A JSON array of patterns (CHECK json_type = 'array'). */
  readonly staging: string;
}

/** The columns of a ProductRow, for every read of `products`. */
export const PRODUCT_COLUMNS = 'id, author, name, created_at, staging';

export interface AuthorRow {
  readonly id: string;
  readonly name: string;
  readonly created_at: number;
}

/** An `author_tokens` row as listed: never its hash. */
export interface AuthorTokenRow {
  readonly id: string;
  readonly author_id: string;
  readonly label: string | null;
  readonly created_at: number;
  readonly last_used_at: number | null;
}

export function toAuthorRecord(row: AuthorRow): Store.AuthorRecord {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export function toAuthorTokenRecord(row: AuthorTokenRow): Store.AuthorTokenRecord {
  return {
    id: row.id,
    authorId: row.author_id,
    label: row.label,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export function toBoundDomain(row: DomainRow): Store.BoundDomain {
  return { domain: row.domain, firstSeen: row.first_seen, lastSeen: row.last_seen };
}

export function toProductRecord(row: ProductRow): Store.ProductRecord {
  return {
    id: row.id,
    author: row.author,
    name: row.name,
    createdAt: row.created_at,
    staging: storedColumn.staging(row.id, JSON.parse(row.staging)),
  };
}

export function toStoredKey(row: KeyRow, products: readonly string[], domains: readonly DomainRow[]): Store.StoredKey {
  return {
    id: formatRowId(row.id),
    hash: row.hash,
    hint: row.hint,
    produit: row.product_id,
    kind: storedColumn.keyKind(row.id, row.kind),
    status: storedColumn.keyStatus(row.id, row.status),
    sites: row.sites,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
    reason: row.reason,
    replacedBy: row.replaced_by === null ? null : formatRowId(row.replaced_by),
    createdAt: row.created_at,
    products,
    domains: domains.map(toBoundDomain),
    lineage: formatRowId(row.lineage),
    endedBy: storedColumn.keyEndedBy(row.id, row.ended_by),
    staging: storedColumn.staging(row.product_id, JSON.parse(row.staging)),
  };
}
