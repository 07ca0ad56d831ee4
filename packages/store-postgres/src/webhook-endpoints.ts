import type pg from 'pg';
import type { Store } from '@licence/service';
import type { Query } from './query.js';
import type { Transaction } from './transaction.js';
import { ENDPOINT_SELECT, toEndpointRecord } from './webhook-rows.js';
import type { EndpointRow } from './webhook-rows.js';

/** Rows one statement of a large endpoint's deletion removes (with their attempts). */
export const WEBHOOK_DELETE_CHUNK = 1000;

/**
 * One statement: no endpoint when the author is unknown ('no-author', as author tokens), else the
 * endpoint and its first secret, without an end. Authors are never deleted, so the foreign key is
 * only the backstop.
 */
const INSERT = `
  WITH endpoint AS (
    INSERT INTO webhook_endpoints (id, author, url, events, created_at)
    SELECT $1, $2, $3, $4, $5 WHERE $2::text IS NULL OR EXISTS (SELECT 1 FROM authors WHERE id = $2)
    RETURNING id
  )
  INSERT INTO webhook_secrets (endpoint_id, secret) SELECT id, $6 FROM endpoint RETURNING endpoint_id`;

/**
 * An author's endpoint under its quota (docs/protocol.md#endpoints, LICENCE_WEBHOOKS_PER_AUTHOR).
 * The author's row is locked first, so adds for one author queue: each counts after the one before
 * it committed (READ COMMITTED takes a new snapshot per statement), and two adds at once, from one
 * process or several, never pass the quota. NO KEY UPDATE does not block the foreign key's KEY
 * SHARE lock that other writes take on the row.
 */
async function addUnderQuota(
  transaction: Transaction,
  endpoint: Store.NewWebhookEndpoint & { readonly author: string },
  perAuthor: number,
): Promise<Store.Created<'no-author' | 'too-many'>> {
  const { id, author, url, events, createdAt, secret } = endpoint;
  return transaction(async (client) => {
    const found = await client.query('SELECT 1 FROM authors WHERE id = $1 FOR NO KEY UPDATE', [author]);
    if (found.rowCount === 0) return { result: 'no-author' };
    const counted = await client.query<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM webhook_endpoints WHERE author = $1',
      [author],
    );
    if ((counted.rows[0]?.n ?? 0) >= perAuthor) return { result: 'too-many' };
    const inserted = await client.query(INSERT, [id, author, url, events, createdAt, secret]);
    return inserted.rowCount === 1 ? { result: 'created', id } : { result: 'no-author' };
  });
}

/**
 * Before the endpoint goes, its deliveries go in chunks (their attempts with them, ON DELETE
 * CASCADE): 30 days of a busy shop's deliveries in one cascade could outlast statement_timeout.
 */
const DELETE_DELIVERIES = `
  DELETE FROM webhook_deliveries WHERE id IN
    (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`;

/**
 * A rotation (docs/protocol.md#webhooks): the secrets ended by an earlier rotation whose end is not
 * after this one's go (so at most two sign: the current one and its predecessor, as the SQLite
 * store does), the current one ends at `previousUntil`, and the new one is current. The endpoint's
 * row is locked first, so two rotations at once queue.
 */
async function rotate(transaction: Transaction, id: string, secret: string, previousUntil: number): Promise<boolean> {
  return transaction(async (client) => {
    const found = await client.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE', [id]);
    if (found.rowCount === 0) return false;
    await client.query('DELETE FROM webhook_secrets WHERE endpoint_id = $1 AND ends_at IS NOT NULL AND ends_at <= $2', [
      id,
      previousUntil,
    ]);
    await client.query('UPDATE webhook_secrets SET ends_at = $2 WHERE endpoint_id = $1 AND ends_at IS NULL', [
      id,
      previousUntil,
    ]);
    await client.query('INSERT INTO webhook_secrets (endpoint_id, secret) VALUES ($1, $2)', [id, secret]);
    return true;
  });
}

/**
 * The shops' endpoints and their signing secrets (docs/protocol.md#webhooks). A secret is kept as
 * given, since every attempt signs with it; none is ever listed or logged.
 */
export function webhookEndpoints(
  pool: pg.Pool,
  query: Query,
  transaction: Transaction,
): Pick<
  Store,
  'addWebhookEndpoint' | 'listWebhookEndpoints' | 'getWebhookEndpoint' | 'deleteWebhookEndpoint' | 'rotateWebhookSecret'
> {
  return {
    async addWebhookEndpoint(endpoint, perAuthor) {
      const { id, author, url, events, createdAt, secret } = endpoint;
      if (author !== null && perAuthor !== undefined)
        return addUnderQuota(transaction, { ...endpoint, author }, perAuthor);
      const rows = await query(INSERT, [id, author, url, events, createdAt, secret]);
      return rows.length === 1 ? { result: 'created', id } : { result: 'no-author' };
    },

    async listWebhookEndpoints(author) {
      // Oldest first, then by id in byte order (as the SQLite store), whatever the locale.
      const rows =
        author === null
          ? await query<EndpointRow>(`${ENDPOINT_SELECT} ORDER BY created_at, id COLLATE "C"`)
          : await query<EndpointRow>(`${ENDPOINT_SELECT} WHERE author = $1 ORDER BY created_at, id COLLATE "C"`, [
              author,
            ]);
      return rows.map(toEndpointRecord);
    },

    async getWebhookEndpoint(id) {
      const row = (await query<EndpointRow>(`${ENDPOINT_SELECT} WHERE id = $1`, [id]))[0];
      return row === undefined ? null : toEndpointRecord(row);
    },

    async deleteWebhookEndpoint(id) {
      for (;;) {
        const deleted = (await pool.query(DELETE_DELIVERIES, [id, WEBHOOK_DELETE_CHUNK])).rowCount ?? 0;
        if (deleted < WEBHOOK_DELETE_CHUNK) break;
      }
      // Its secrets, and any delivery fanned out meanwhile, go with it (ON DELETE CASCADE).
      return (await query('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id', [id])).length === 1;
    },

    async rotateWebhookSecret(id, secret, previousUntil) {
      return rotate(transaction, id, secret, previousUntil);
    },
  };
}
