import { isRecord } from '@licence/core';
import { storedColumn } from '@licence/service';
import type { Store } from '@licence/service';

/**
 * Rows as `pg` returns them: `bigint` (int8) columns come as decimal STRINGS (pg's default, so
 * nothing above 2^53 is rounded silently); ids stay strings (the port's ids are strings), times
 * are turned into numbers here, checked. Domains come as one JSON array per key (json_agg), where
 * bigints are JSON numbers. Twin of KeyRow in store-sqlite/src/rows.ts on purpose: the same
 * columns, typed as each driver returns them.
 */
export interface KeyRow {
  readonly id: string;
  readonly hash: string;
  readonly hint: string;
  readonly product_id: string;
  readonly kind: string;
  readonly status: string;
  readonly sites: number;
  readonly expires_at: string | null;
  readonly ended_at: string | null;
  readonly reason: string | null;
  readonly replaced_by: string | null;
  readonly created_at: string;
  readonly lineage: string;
  readonly ended_by: string | null;
  /** KEY_SELECT's `opens` column (a query alias, no stored column): Store.StoredKey `products`. */
  readonly opens: readonly string[];
  readonly domains: unknown;
  /** Its own product's staging patterns (products.staging, text[]). */
  readonly staging: unknown;
}

export interface InstallationRow {
  readonly id: string;
  readonly hint: string;
  readonly kind: string;
  readonly status: string;
  readonly domains: unknown;
}

export interface ProductRow {
  readonly id: string;
  readonly author: string;
  readonly name: string;
  readonly created_at: string;
  /** text[], which pg hands over as an array of strings. */
  readonly staging: unknown;
}

/** The columns of a ProductRow, for every read of `products`. */
export const PRODUCT_COLUMNS = 'id, author, name, created_at, staging';

/**
 * The columns of a full key: its row, the products it opens, its bound domains in order, and its
 * own product's staging patterns (a join on products' primary key: still one statement).
 */
export const KEY_SELECT = `
  SELECT k.id::text AS id, k.hash, k.hint, k.product_id, k.kind, k.status, k.sites, k.expires_at,
         k.ended_at, k.reason, k.replaced_by::text AS replaced_by, k.created_at,
         coalesce(k.lineage, k.id)::text AS lineage, k.ended_by, own.staging,
         -- docs/protocol.md#key-lifecycle: a dev key opens every product of its author, including
         -- ones added after it.
         CASE WHEN k.kind = 'dev'
              THEN ARRAY(SELECT p.id FROM products p
                         WHERE p.author = (SELECT a.author FROM products a WHERE a.id = k.product_id)
                         ORDER BY p.id)
              ELSE ARRAY[k.product_id] END AS opens,
         ${domainsOf('k.id')} AS domains
  FROM keys k JOIN products own ON own.id = k.product_id`;

/** A key's bound domains as one JSON array in binding order ('[]' when none). */
export function domainsOf(keyId: string): string {
  return (
    "coalesce((SELECT json_agg(json_build_object('domain', d.domain, 'first_seen', d.first_seen, " +
    `'last_seen', d.last_seen) ORDER BY d.position) FROM bound_domains d WHERE d.key_id = ${keyId}), '[]'::json)`
  );
}

/** Reads an int8 time column as whole seconds, a number; refuses what a number cannot hold exactly. */
export function readWholeSeconds(column: string, value: string | number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) {
    throw new TypeError(`${column}: expected whole seconds, got ${JSON.stringify(value)}`);
  }
  return n;
}

function readNullableWholeSeconds(column: string, value: string | null): number | null {
  return value === null ? null : readWholeSeconds(column, value);
}

export function toBoundDomains(keyId: string, value: unknown): Store.BoundDomain[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`bound domains of key ${keyId}: expected a JSON array, got ${typeof value}`);
  }
  return value.map((item: unknown) => {
    if (!isRecord(item)) {
      throw new TypeError(`bound domains of key ${keyId}: expected objects`);
    }
    const { domain, first_seen: firstSeen, last_seen: lastSeen } = item;
    if (typeof domain !== 'string' || typeof firstSeen !== 'number' || typeof lastSeen !== 'number') {
      throw new TypeError(`bound domains of key ${keyId}: expected {domain, first_seen, last_seen}`);
    }
    return {
      domain,
      firstSeen: readWholeSeconds('bound_domains.first_seen', firstSeen),
      lastSeen: readWholeSeconds('bound_domains.last_seen', lastSeen),
    };
  });
}

export function toStoredKey(row: KeyRow): Store.StoredKey {
  return {
    id: row.id,
    hash: row.hash,
    hint: row.hint,
    produit: row.product_id,
    kind: storedColumn.keyKind(row.id, row.kind),
    status: storedColumn.keyStatus(row.id, row.status),
    sites: row.sites,
    expiresAt: readNullableWholeSeconds('keys.expires_at', row.expires_at),
    endedAt: readNullableWholeSeconds('keys.ended_at', row.ended_at),
    reason: row.reason,
    replacedBy: row.replaced_by,
    createdAt: readWholeSeconds('keys.created_at', row.created_at),
    products: [...row.opens],
    domains: toBoundDomains(row.id, row.domains),
    lineage: row.lineage,
    endedBy: storedColumn.keyEndedBy(row.id, row.ended_by),
    staging: storedColumn.staging(row.product_id, row.staging),
  };
}

export function toInstallation(row: InstallationRow): Store.Installation {
  return {
    keyId: row.id,
    hint: row.hint,
    kind: storedColumn.keyKind(row.id, row.kind),
    status: storedColumn.keyStatus(row.id, row.status),
    domains: toBoundDomains(row.id, row.domains),
  };
}

export function toProductRecord(row: ProductRow): Store.ProductRecord {
  return {
    id: row.id,
    author: row.author,
    name: row.name,
    createdAt: readWholeSeconds('products.created_at', row.created_at),
    staging: storedColumn.staging(row.id, row.staging),
  };
}
