import pg from 'pg';
import type { PoolClient } from 'pg';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import { parseKeyId } from './key-id.js';
import type { Transaction } from './transaction.js';
import { writeWebhookEvents } from './webhook-outbox.js';

type NewKey = Store.NewKey;

/** PostgreSQL's unique_violation (https://www.postgresql.org/docs/15/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION && error.constraint === constraint;
}

/**
 * Inserts `domains` for `keyId` in their order, each once at its first place (a repeat would break
 * the primary key); a domain also bound to `keptFrom` keeps its first and last seen from there
 * (docs/protocol.md#key-lifecycle: a transfer carries the old bindings over).
 */
async function insertDomains(
  client: PoolClient,
  keyId: string,
  domains: readonly string[],
  at: number,
  keptFrom: string | null,
): Promise<void> {
  const list = [...new Set(domains)];
  if (list.length === 0) {
    return;
  }
  await client.query(
    'INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) ' +
      'SELECT $1, t.domain, t.n - 1, coalesce(old.first_seen, $3), coalesce(old.last_seen, $3) ' +
      'FROM unnest($2::text[]) WITH ORDINALITY AS t(domain, n) ' +
      'LEFT JOIN bound_domains old ON old.key_id = $4 AND old.domain = t.domain',
    [keyId, list, at, keptFrom],
  );
}

/**
 * Inserts the key in `lineage` (a replacement's: its old key's), else in its own: the id is drawn
 * from the identity's sequence first, so the key names itself as its lineage in the same statement.
 */
async function insertNewKey(client: PoolClient, key: NewKey, lineage: string | null): Promise<string> {
  const result = await client.query<{ id: string }>(
    "WITH next AS (SELECT nextval(pg_get_serial_sequence('keys', 'id')) AS id) " +
      'INSERT INTO keys (id, hash, hint, product_id, kind, sites, expires_at, created_at, lineage) OVERRIDING SYSTEM VALUE ' +
      'SELECT next.id, $1, $2, $3, $4, $5, $6, $7, coalesce($8::bigint, next.id) FROM next RETURNING id::text AS id',
    [key.hash, key.hint, key.produit, key.kind, key.sites, key.expiresAt, key.createdAt, lineage],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) {
    throw new Error('insert into keys returned no id');
  }
  return id;
}

/**
 * Issues a key, its product checked and (for a dev key) the live dev key of the product; its
 * webhook events go with it (webhook-outbox.ts).
 */
async function issue(
  client: PoolClient,
  key: NewKey,
  domains: readonly string[],
  events: readonly Store.NewWebhookEvent[],
): Promise<Store.Created<'no-product' | 'dev-exists'>> {
  const product = await client.query('SELECT 1 FROM products WHERE id = $1', [key.produit]);
  if (product.rowCount === 0) {
    return { result: 'no-product' };
  }
  if (key.kind === 'dev') {
    const live = await client.query("SELECT 1 FROM keys WHERE product_id = $1 AND kind = 'dev' AND status = 'active'", [
      key.produit,
    ]);
    if ((live.rowCount ?? 0) > 0) {
      return { result: 'dev-exists' };
    }
  }
  const id = await insertNewKey(client, key, null);
  await insertDomains(client, id, domains, key.createdAt, null);
  await writeWebhookEvents(client, events);
  return { result: 'created', id };
}

/**
 * Regenerate / transfer (docs/protocol.md#key-lifecycle), inside one transaction: a failed insert
 * (a taken hash, an unknown product) leaves the old key active and no new key behind.
 */
async function replace(
  client: PoolClient,
  oldId: string,
  status: 'transfert' | 'regeneration',
  newKey: NewKey,
  domains: readonly string[],
  now: number,
  events: readonly Store.NewWebhookEvent[],
  endedBy: Store.KeyChangeInitiator | null,
): Promise<Store.Created<'not-active'>> {
  // End the old key first (its row stays locked until COMMIT, so a concurrent replace or revoke
  // waits, then finds it no longer active). With one live dev key per product, a regenerated dev
  // key can only be inserted once the old one is no longer active. The new key takes its lineage,
  // which a key of a previous build gets here (NULL: its own id), so the count of buyer transfers
  // finds every key this build ended.
  const ended = await client.query<{ lineage: string }>(
    'UPDATE keys SET status = $1, ended_at = $2, ended_by = $3, lineage = coalesce(lineage, id) ' +
      "WHERE id = $4 AND status = 'active' RETURNING lineage::text AS lineage",
    [status, now, endedBy, oldId],
  );
  const lineage = ended.rows[0]?.lineage;
  if (lineage === undefined) {
    return { result: 'not-active' };
  }
  const newId = await insertNewKey(client, newKey, lineage);
  await client.query('UPDATE keys SET replaced_by = $1 WHERE id = $2', [newId, oldId]);
  await insertDomains(client, newId, domains, now, oldId);
  await writeWebhookEvents(client, events);
  return { result: 'created', id: newId };
}

const REVOKE = "UPDATE keys SET status = 'revocation', ended_at = $1, reason = $2 WHERE id = $3 AND status = 'active'";

/**
 * The key lifecycle (docs/protocol.md#key-lifecycle): issue, replace, revoke, each with its webhook
 * events in the same transaction, written only when the change is made (docs/protocol.md#webhooks).
 */
export function keyWrites(
  pool: pg.Pool,
  query: Query,
  transaction: Transaction,
): Pick<Store, 'insertKey' | 'replaceKey' | 'countBuyerTransfers' | 'revokeKey'> {
  return {
    async insertKey(key, domains = [], events = []) {
      try {
        return await transaction((client) => issue(client, key, domains, events));
      } catch (error) {
        // Two processes issuing a dev key at once both pass the check; the partial unique index
        // lets one in and fails the other, which is the same answer
        // (docs/protocol.md#key-lifecycle: 409).
        if (isUniqueViolation(error, 'keys_one_live_dev')) {
          return { result: 'dev-exists' };
        }
        throw error;
      }
    },

    async replaceKey(oldId, status, newKey, domains, now, events = [], initiatedBy) {
      const id = parseKeyId(oldId);
      if (id === null) {
        return { result: 'not-active' };
      }
      return transaction((client) => replace(client, id, status, newKey, domains, now, events, initiatedBy ?? null));
    },

    async countBuyerTransfers(lineage, since) {
      const id = parseKeyId(lineage);
      if (id === null) {
        return 0;
      }
      // docs/protocol.md#buyer-links: served by the partial index keys_buyer_transfers.
      const rows = await query<{ count: number }>(
        "SELECT count(*)::integer AS count FROM keys WHERE lineage = $1 AND status = 'transfert' " +
          "AND ended_by = 'buyer' AND ended_at >= $2",
        [id, since],
      );
      return rows[0]?.count ?? 0;
    },

    async revokeKey(id, reason, now, events = []) {
      const keyId = parseKeyId(id);
      if (keyId === null) {
        return 'not-active';
      }
      // Without events, one statement is its own transaction; with them, one transaction for both.
      if (events.length === 0) {
        return (await pool.query(REVOKE, [now, reason, keyId])).rowCount === 1 ? 'revoked' : 'not-active';
      }
      return transaction(async (client) => {
        if ((await client.query(REVOKE, [now, reason, keyId])).rowCount !== 1) return 'not-active';
        await writeWebhookEvents(client, events);
        return 'revoked';
      });
    },
  };
}
