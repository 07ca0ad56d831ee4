import { KEY_KINDS, KEY_STATUSES } from '@licence/core';
import type { KeyKind, KeyStatus } from '@licence/core';
import type { BoundDomain, Installation, ProductRecord, StoredKey } from '@licence/service';

/**
 * Rows as `pg` returns them: `bigint` (int8) columns come as decimal STRINGS (pg's default, so
 * nothing above 2^53 is rounded silently); ids stay strings (the port's ids are strings), times
 * are turned into numbers here, checked. Domains come as one JSON array per key (json_agg), where
 * bigints are JSON numbers.
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
  readonly opens: readonly string[];
  readonly domains: unknown;
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
}

/** The columns of a full key: its row, the products it opens, its bound domains in order. */
export const KEY_SELECT = `
  SELECT k.id::text AS id, k.hash, k.hint, k.product_id, k.kind, k.status, k.sites, k.expires_at,
         k.ended_at, k.reason, k.replaced_by::text AS replaced_by, k.created_at,
         -- docs/protocol.md#key-lifecycle: a dev key opens every product of its author, including
         -- ones added after it.
         CASE WHEN k.kind = 'dev'
              THEN ARRAY(SELECT p.id FROM products p
                         WHERE p.author = (SELECT a.author FROM products a WHERE a.id = k.product_id)
                         ORDER BY p.id)
              ELSE ARRAY[k.product_id] END AS opens,
         ${domainsOf('k.id')} AS domains
  FROM keys k`;

/** A key's bound domains as one JSON array in binding order ('[]' when none). */
export function domainsOf(keyId: string): string {
  return (
    "coalesce((SELECT json_agg(json_build_object('domain', d.domain, 'first_seen', d.first_seen, " +
    `'last_seen', d.last_seen) ORDER BY d.position) FROM bound_domains d WHERE d.key_id = ${keyId}), '[]'::json)`
  );
}

/** core has one, but does not export it (its index.ts): a JSON object, not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKeyKind(value: string): value is KeyKind {
  return (KEY_KINDS as readonly string[]).includes(value);
}

function isKeyStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/**
 * The CHECK constraints already hold these; a value outside them means a database edited by hand
 * or by a newer build, and is refused rather than guessed (docs/protocol.md#errors: a fault is a
 * 5xx, never a verdict made up from bad data).
 */
export function keyKind(id: string, kind: string): KeyKind {
  if (!isKeyKind(kind)) {
    throw new TypeError(`keys.kind of key ${id}: expected one of ${KEY_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  }
  return kind;
}

export function keyStatus(id: string, status: string): KeyStatus {
  if (!isKeyStatus(status)) {
    throw new TypeError(
      `keys.status of key ${id}: expected one of ${KEY_STATUSES.join(', ')}, got ${JSON.stringify(status)}`,
    );
  }
  return status;
}

/** An int8 time (seconds) as a number; refuses what a number cannot hold exactly. */
export function seconds(column: string, value: string | number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) {
    throw new TypeError(`${column}: expected whole seconds, got ${JSON.stringify(value)}`);
  }
  return n;
}

function nullableSeconds(column: string, value: string | null): number | null {
  return value === null ? null : seconds(column, value);
}

export function toBoundDomains(keyId: string, value: unknown): BoundDomain[] {
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
      firstSeen: seconds('bound_domains.first_seen', firstSeen),
      lastSeen: seconds('bound_domains.last_seen', lastSeen),
    };
  });
}

export function toStoredKey(row: KeyRow): StoredKey {
  return {
    id: row.id,
    hash: row.hash,
    hint: row.hint,
    produit: row.product_id,
    kind: keyKind(row.id, row.kind),
    status: keyStatus(row.id, row.status),
    sites: row.sites,
    expiresAt: nullableSeconds('keys.expires_at', row.expires_at),
    endedAt: nullableSeconds('keys.ended_at', row.ended_at),
    reason: row.reason,
    replacedBy: row.replaced_by,
    createdAt: seconds('keys.created_at', row.created_at),
    opens: [...row.opens],
    domains: toBoundDomains(row.id, row.domains),
  };
}

export function toInstallation(row: InstallationRow): Installation {
  return {
    keyId: row.id,
    hint: row.hint,
    kind: keyKind(row.id, row.kind),
    status: keyStatus(row.id, row.status),
    domains: toBoundDomains(row.id, row.domains),
  };
}

export function toProductRecord(row: ProductRow): ProductRecord {
  return { id: row.id, author: row.author, name: row.name, createdAt: seconds('products.created_at', row.created_at) };
}
