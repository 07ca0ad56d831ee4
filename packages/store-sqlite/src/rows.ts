import { KEY_KINDS, KEY_STATUSES } from '@licence/core';
import type { KeyKind, KeyStatus } from '@licence/core';
import type { BoundDomain, ProductRecord, StoredKey } from '@licence/service';
import { formatRowId } from './row-id.js';

/** A `keys` row as better-sqlite3 returns it (column names of migration 1). */
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
}

function isKeyKind(value: string): value is KeyKind {
  return (KEY_KINDS as readonly string[]).includes(value);
}

function isKeyStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/**
 * The CHECK constraints of migration 1 already hold these; a value outside them means a file
 * edited by hand or by a newer build, and is refused rather than guessed (docs/protocol.md#errors:
 * a fault is a 5xx, never a verdict made up from bad data).
 */
export function keyKind(row: KeyRow): KeyKind {
  if (!isKeyKind(row.kind)) {
    throw new TypeError(
      `keys.kind of key ${row.id}: expected one of ${KEY_KINDS.join(', ')}, got ${JSON.stringify(row.kind)}`,
    );
  }
  return row.kind;
}

export function keyStatus(row: KeyRow): KeyStatus {
  if (!isKeyStatus(row.status)) {
    throw new TypeError(
      `keys.status of key ${row.id}: expected one of ${KEY_STATUSES.join(', ')}, got ${JSON.stringify(row.status)}`,
    );
  }
  return row.status;
}

export function toBoundDomain(row: DomainRow): BoundDomain {
  return { domain: row.domain, firstSeen: row.first_seen, lastSeen: row.last_seen };
}

export function toProductRecord(row: ProductRow): ProductRecord {
  return { id: row.id, author: row.author, name: row.name, createdAt: row.created_at };
}

export function toStoredKey(row: KeyRow, opens: readonly string[], domains: readonly DomainRow[]): StoredKey {
  return {
    id: formatRowId(row.id),
    hash: row.hash,
    hint: row.hint,
    produit: row.product_id,
    kind: keyKind(row),
    status: keyStatus(row),
    sites: row.sites,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
    reason: row.reason,
    replacedBy: row.replaced_by === null ? null : formatRowId(row.replaced_by),
    createdAt: row.created_at,
    opens,
    domains: domains.map(toBoundDomain),
  };
}
