import type Database from 'better-sqlite3';
import { storedColumn } from '@licence/service';
import type { Store } from '@licence/service';
import type { BoundDomainStatements } from './bound-domains.js';
import { formatRowId, parseRowId } from './row-id.js';
import { toBoundDomain, toStoredKey } from './rows.js';
import type { DomainRow, KeyRow } from './rows.js';

type StoredKey = Store.StoredKey;

/**
 * A key's columns, with its product's staging patterns (StoredKey `staging`) by a join on the
 * product's primary key: still one statement on the verdict's hot path.
 */
const KEY_FIELDS =
  'k.id, k.hash, k.hint, k.product_id, k.kind, k.status, k.sites, k.expires_at, k.ended_at, k.reason, ' +
  'k.replaced_by, k.created_at, coalesce(k.lineage, k.id) AS lineage, k.ended_by, p.staging';
const KEY_FROM = 'FROM keys k JOIN products p ON p.id = k.product_id';

/** What an installation shows of a key. */
type InstallationRow = Pick<KeyRow, 'id' | 'hint' | 'kind' | 'status'>;

/** A bound_domains row from a LEFT JOIN: all NULL when the key has no domain. */
type NullableDomainRow = {
  readonly domain: string | null;
  readonly first_seen: number | null;
  readonly last_seen: number | null;
};

function keyStatements(db: Database.Database) {
  return {
    byHash: db.prepare<[string], KeyRow>(`SELECT ${KEY_FIELDS} ${KEY_FROM} WHERE k.hash = ?`),
    // The hot path of every verdict: the key and its bound domains in ONE statement, so they come
    // from one snapshot without the cost of a BEGIN/COMMIT pair (the LEFT JOIN gives one row with
    // NULL domain columns for a key with no domain).
    withDomainsByHash: db.prepare<[string], KeyRow & NullableDomainRow>(
      `SELECT ${KEY_FIELDS}, d.domain, d.first_seen, d.last_seen ${KEY_FROM} ` +
        'LEFT JOIN bound_domains d ON d.key_id = k.id WHERE k.hash = ? ORDER BY d.position',
    ),
    byId: db.prepare<[number], KeyRow>(`SELECT ${KEY_FIELDS} ${KEY_FROM} WHERE k.id = ?`),
    ofProduct: db.prepare<[string], InstallationRow>(
      'SELECT id, hint, kind, status FROM keys WHERE product_id = ? ORDER BY id',
    ),
    productsOfAuthorOf: db.prepare<[string], { id: string }>(
      'SELECT id FROM products WHERE author = (SELECT author FROM products WHERE id = ?) ORDER BY id',
    ),
  };
}

/**
 * The key lookups. Those of more than one statement run in a (deferred) transaction, so a key and
 * its domains come from one snapshot even while another process writes (WAL readers see a
 * consistent snapshot).
 */
export function keyReads(
  db: Database.Database,
  domains: BoundDomainStatements,
): Pick<Store, 'findKeyByHash' | 'findKeyById' | 'installations'> {
  const sql = keyStatements(db);

  function fullKey(row: KeyRow): StoredKey {
    // docs/protocol.md#key-lifecycle: a dev key opens every product of its author, including ones
    // added after it.
    const products =
      storedColumn.keyKind(row.id, row.kind) === 'dev'
        ? sql.productsOfAuthorOf.all(row.product_id).map((p) => p.id)
        : [row.product_id];
    return toStoredKey(row, products, domains.ofKey.all(row.id));
  }

  const keyByHashInTransaction = db.transaction((hash: string): StoredKey | null => {
    const row = sql.byHash.get(hash);
    return row === undefined ? null : fullKey(row);
  });
  function keyByHash(hash: string): StoredKey | null {
    const rows = sql.withDomainsByHash.all(hash);
    const first = rows[0];
    if (first === undefined) return null;
    // A dev key also needs its author's products: the two-statement read, in a transaction.
    if (storedColumn.keyKind(first.id, first.kind) === 'dev') return keyByHashInTransaction(hash);
    const found = first.domain === null ? [] : (rows as DomainRow[]);
    return toStoredKey(first, [first.product_id], found);
  }
  const keyById = db.transaction((id: number): StoredKey | null => {
    const row = sql.byId.get(id);
    return row === undefined ? null : fullKey(row);
  });
  const installations = db.transaction((productId: string): Store.Installation[] =>
    sql.ofProduct.all(productId).map((row) => ({
      keyId: formatRowId(row.id),
      hint: row.hint,
      kind: storedColumn.keyKind(row.id, row.kind),
      status: storedColumn.keyStatus(row.id, row.status),
      domains: domains.ofKey.all(row.id).map(toBoundDomain),
    })),
  );

  return {
    async findKeyByHash(hash) {
      return keyByHash(hash);
    },
    async findKeyById(id) {
      const rowid = parseRowId(id);
      return rowid === null ? null : keyById(rowid);
    },
    async installations(productId) {
      return installations(productId);
    },
  };
}
