import type Database from 'better-sqlite3';
import type { Created, NewKey, Store } from '@licence/service';
import { insertDomains } from './bound-domains.js';
import type { BoundDomainStatements } from './bound-domains.js';
import { formatRowId, parseRowId } from './row-id.js';

function keyStatements(db: Database.Database) {
  return {
    productExists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM products WHERE id = ?'),
    insert: db.prepare<[string, string, string, string, number, number | null, number]>(
      'INSERT INTO keys (hash, hint, product_id, kind, sites, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    liveDevKey: db.prepare<[string], { id: number }>(
      "SELECT id FROM keys WHERE product_id = ? AND kind = 'dev' AND status = 'active'",
    ),
    end: db.prepare<[string, number, number]>(
      "UPDATE keys SET status = ?, ended_at = ? WHERE id = ? AND status = 'active'",
    ),
    setReplacedBy: db.prepare<[number, number]>('UPDATE keys SET replaced_by = ? WHERE id = ?'),
    revoke: db.prepare<[number, string | null, number]>(
      "UPDATE keys SET status = 'revocation', ended_at = ?, reason = ? WHERE id = ? AND status = 'active'",
    ),
  };
}

/**
 * The key lifecycle (docs/protocol.md#key-lifecycle): issue, replace, revoke. Issuing and replacing
 * are each one immediate transaction, so the checks and the writes cannot interleave with another
 * process's.
 */
export function keyWrites(
  db: Database.Database,
  domains: BoundDomainStatements,
): Pick<Store, 'insertKey' | 'replaceKey' | 'revokeKey'> {
  const sql = keyStatements(db);

  function insertNewKey(key: NewKey): number {
    const info = sql.insert.run(key.hash, key.hint, key.produit, key.kind, key.sites, key.expiresAt, key.createdAt);
    return Number(info.lastInsertRowid);
  }

  const insert = db.transaction((key: NewKey, list: readonly string[]): Created<'no-product' | 'dev-exists'> => {
    if (sql.productExists.get(key.produit) === undefined) {
      return { result: 'no-product' };
    }
    if (key.kind === 'dev' && sql.liveDevKey.get(key.produit) !== undefined) {
      return { result: 'dev-exists' };
    }
    const id = insertNewKey(key);
    insertDomains(domains, id, list, key.createdAt);
    return { result: 'created', id: formatRowId(id) };
  });

  // Regenerate / transfer in one transaction, so a crash or a failed insert (a taken hash, an
  // unknown product) leaves the old key active and no new key behind.
  const replace = db.transaction(
    (
      oldId: number,
      status: 'transfert' | 'regeneration',
      newKey: NewKey,
      list: readonly string[],
      now: number,
    ): Created<'not-active'> => {
      // End the old key first: with one live dev key per product (index keys_one_live_dev), a
      // regenerated dev key can only be inserted once the old one is no longer active.
      if (sql.end.run(status, now, oldId).changes === 0) {
        return { result: 'not-active' };
      }
      const kept = new Map(domains.ofKey.all(oldId).map((row) => [row.domain, row]));
      const id = insertNewKey(newKey);
      sql.setReplacedBy.run(id, oldId);
      insertDomains(domains, id, list, now, kept);
      return { result: 'created', id: formatRowId(id) };
    },
  );

  return {
    async insertKey(key, list = []) {
      return insert.immediate(key, list);
    },
    async replaceKey(oldId, status, newKey, list, now) {
      const rowid = parseRowId(oldId);
      return rowid === null ? { result: 'not-active' } : replace.immediate(rowid, status, newKey, list, now);
    },
    async revokeKey(id, reason, now) {
      const rowid = parseRowId(id);
      if (rowid === null) return 'not-active';
      return sql.revoke.run(now, reason, rowid).changes > 0 ? 'revoked' : 'not-active';
    },
  };
}
