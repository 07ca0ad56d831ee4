import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import { insertDomains } from './bound-domains.js';
import type { BoundDomainStatements } from './bound-domains.js';
import { formatRowId, parseRowId } from './row-id.js';
import type { WebhookOutbox } from './webhook-outbox.js';

type NewKey = Store.NewKey;
type NewWebhookEvent = Store.NewWebhookEvent;

const NO_EVENTS: readonly NewWebhookEvent[] = [];

function keyStatements(db: Database.Database) {
  return {
    productExists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM products WHERE id = ?'),
    insert: db.prepare<[string, string, string, string, number, number | null, number, number | null]>(
      'INSERT INTO keys (hash, hint, product_id, kind, sites, expires_at, created_at, lineage) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    // A key that replaced none is the first of its lineage: its id is known once inserted.
    ownLineage: db.prepare<[number]>('UPDATE keys SET lineage = id WHERE id = ?'),

    liveDevKey: db.prepare<[string], { id: number }>(
      "SELECT id FROM keys WHERE product_id = ? AND kind = 'dev' AND status = 'active'",
    ),
    // The old key's lineage goes to its new key; a key a previous build's process wrote during the
    // upgrade gets one here (NULL: its own id), so the count of buyer transfers finds every key
    // this build ended.
    end: db.prepare<[string, number, string | null, number], { lineage: number }>(
      'UPDATE keys SET status = ?, ended_at = ?, ended_by = ?, lineage = coalesce(lineage, id) ' +
        "WHERE id = ? AND status = 'active' RETURNING lineage",
    ),
    // docs/protocol.md#buyer-links: served by the partial index keys_buyer_transfers.
    buyerTransfers: db.prepare<[number, number], { count: number }>(
      "SELECT count(*) AS count FROM keys WHERE lineage = ? AND status = 'transfert' AND ended_by = 'buyer' " +
        'AND ended_at >= ?',
    ),
    setReplacedBy: db.prepare<[number, number]>('UPDATE keys SET replaced_by = ? WHERE id = ?'),
    revoke: db.prepare<[number, string | null, number]>(
      "UPDATE keys SET status = 'revocation', ended_at = ?, reason = ? WHERE id = ? AND status = 'active'",
    ),
  };
}

type KeyStatements = ReturnType<typeof keyStatements>;

/** What each of the key writes' transactions works with. */
interface KeyWriteContext {
  readonly db: Database.Database;
  readonly sql: KeyStatements;
  readonly domains: BoundDomainStatements;
  readonly outbox: WebhookOutbox;
}

/** Inserts the key, in `lineage` (a replacement's: its old key's), else in its own. */
function insertNewKey(sql: KeyStatements, key: NewKey, lineage: number | null = null): number {
  const info = sql.insert.run(
    key.hash,
    key.hint,
    key.produit,
    key.kind,
    key.sites,
    key.expiresAt,
    key.createdAt,
    lineage,
  );
  const id = Number(info.lastInsertRowid);
  if (lineage === null) sql.ownLineage.run(id);
  return id;
}

function insertTransaction({ db, sql, domains, outbox }: KeyWriteContext) {
  return db.transaction(
    (
      key: NewKey,
      list: readonly string[],
      events: readonly NewWebhookEvent[],
    ): Store.Created<'no-product' | 'dev-exists'> => {
      if (sql.productExists.get(key.produit) === undefined) {
        return { result: 'no-product' };
      }
      if (key.kind === 'dev' && sql.liveDevKey.get(key.produit) !== undefined) {
        return { result: 'dev-exists' };
      }
      const id = insertNewKey(sql, key);
      insertDomains(domains, id, list, key.createdAt);
      outbox.write(events);
      return { result: 'created', id: formatRowId(id) };
    },
  );
}

/**
 * Regenerate / transfer in one transaction, so a crash or a failed insert (a taken hash, an
 * unknown product, a taken event id) leaves the old key active and no new key behind.
 */
function replaceTransaction({ db, sql, domains, outbox }: KeyWriteContext) {
  return db.transaction(
    (
      oldId: number,
      status: 'transfert' | 'regeneration',
      newKey: NewKey,
      list: readonly string[],
      now: number,
      events: readonly NewWebhookEvent[],
      endedBy: Store.KeyChangeInitiator | null,
    ): Store.Created<'not-active'> => {
      // End the old key first: with one live dev key per product (index keys_one_live_dev), a
      // regenerated dev key can only be inserted once the old one is no longer active.
      const ended = sql.end.get(status, now, endedBy, oldId);
      if (ended === undefined) {
        return { result: 'not-active' };
      }
      const kept = new Map(domains.ofKey.all(oldId).map((row) => [row.domain, row]));
      const id = insertNewKey(sql, newKey, ended.lineage);
      sql.setReplacedBy.run(id, oldId);
      insertDomains(domains, id, list, now, kept);
      outbox.write(events);
      return { result: 'created', id: formatRowId(id) };
    },
  );
}

function revokeTransaction({ db, sql, outbox }: KeyWriteContext) {
  return db.transaction(
    (id: number, reason: string | null, now: number, events: readonly NewWebhookEvent[]): 'revoked' | 'not-active' => {
      if (sql.revoke.run(now, reason, id).changes === 0) {
        return 'not-active';
      }
      outbox.write(events);
      return 'revoked';
    },
  );
}

/**
 * The key lifecycle (docs/protocol.md#key-lifecycle): issue, replace, revoke. Each is one immediate
 * transaction, so the checks and the writes cannot interleave with another process's, and the
 * webhook events a change causes are written by that same transaction, after the change succeeded
 * (the outbox, docs/protocol.md#webhooks): a refusal or a failure writes none.
 */
export function keyWrites(
  db: Database.Database,
  domains: BoundDomainStatements,
  outbox: WebhookOutbox,
): Pick<Store, 'insertKey' | 'replaceKey' | 'countBuyerTransfers' | 'revokeKey'> {
  const context: KeyWriteContext = { db, sql: keyStatements(db), domains, outbox };
  const insert = insertTransaction(context);
  const replace = replaceTransaction(context);
  const revoke = revokeTransaction(context);
  return {
    async insertKey(key, list = [], events = NO_EVENTS) {
      return insert.immediate(key, list, events);
    },
    async replaceKey(oldId, status, newKey, list, now, events = NO_EVENTS, initiatedBy) {
      const rowid = parseRowId(oldId);
      if (rowid === null) return { result: 'not-active' };
      return replace.immediate(rowid, status, newKey, list, now, events, initiatedBy ?? null);
    },
    async countBuyerTransfers(lineage, since) {
      const rowid = parseRowId(lineage);
      return rowid === null ? 0 : (context.sql.buyerTransfers.get(rowid, since)?.count ?? 0);
    },
    async revokeKey(id, reason, now, events = NO_EVENTS) {
      const rowid = parseRowId(id);
      return rowid === null ? 'not-active' : revoke.immediate(rowid, reason, now, events);
    },
  };
}
