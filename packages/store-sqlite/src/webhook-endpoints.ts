import type Database from 'better-sqlite3';
import type { Store } from '@licence/service';
import type { WebhookFanout } from './webhook-fanout.js';
import { ENDPOINT_COLUMNS, toEndpointRecord } from './webhook-rows.js';
import type { EndpointRow } from './webhook-rows.js';

function endpointStatements(db: Database.Database) {
  return {
    // One statement: the author's existence and the insert cannot interleave with another
    // process's writes, and an unknown author inserts nothing ('no-author'), as author tokens do.
    insert: db.prepare<[string, string | null, string, string, number, string | null, string | null]>(
      `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) SELECT ?, ?, ?, ?, ? ` +
        'WHERE ? IS NULL OR EXISTS (SELECT 1 FROM authors WHERE id = ?)',
    ),
    insertSecret: db.prepare<[string, string, number | null]>(
      'INSERT INTO webhook_secrets (endpoint_id, secret, ends_at) VALUES (?, ?, ?)',
    ),
    // docs/protocol.md#endpoints: the quota's count, on the index webhook_endpoints_author.
    countOf: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE author = ?'),
    authorExists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM authors WHERE id = ?'),
    all: db.prepare<[], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`),
    // Walks the index webhook_endpoints_author (migration step 4).
    ofAuthor: db.prepare<[string], EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE author = ? ORDER BY created_at, id`,
    ),
    byId: db.prepare<[string], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`),
    // Its secrets, deliveries and their attempts go with it (ON DELETE CASCADE, foreign_keys = ON).
    remove: db.prepare<[string]>('DELETE FROM webhook_endpoints WHERE id = ?'),
    exists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM webhook_endpoints WHERE id = ?'),
    dropEnded: db.prepare<[string, number]>('DELETE FROM webhook_secrets WHERE endpoint_id = ? AND ends_at <= ?'),
    endOpen: db.prepare<[number, string]>(
      'UPDATE webhook_secrets SET ends_at = ? WHERE endpoint_id = ? AND ends_at IS NULL',
    ),
  };
}

type AddResult = 'created' | 'no-author' | 'too-many';

/**
 * Webhook endpoints and their signing secrets (docs/protocol.md#webhooks). A secret is kept as
 * given, since every attempt signs with it; the file is private (0600, private-file.ts) and no
 * secret is ever logged or listed.
 */
export function webhookEndpoints(
  db: Database.Database,
  fanOut: WebhookFanout,
): Pick<
  Store,
  'addWebhookEndpoint' | 'listWebhookEndpoints' | 'getWebhookEndpoint' | 'deleteWebhookEndpoint' | 'rotateWebhookSecret'
> {
  const sql = endpointStatements(db);

  // BEGIN IMMEDIATE (`add.immediate`): the count and the insert hold the write lock together, so
  // two processes adding at once on one file never pass the quota (docs/protocol.md#endpoints).
  const add = db.transaction((endpoint: Store.NewWebhookEndpoint, perAuthor: number | undefined): AddResult => {
    // The events written before it go to the endpoints that existed then (webhook-fanout.ts).
    fanOut();
    const { id, author, url, events, createdAt } = endpoint;
    if (author !== null && perAuthor !== undefined && sql.authorExists.get(author) !== undefined) {
      if ((sql.countOf.get(author)?.n ?? 0) >= perAuthor) return 'too-many';
    }
    if (sql.insert.run(id, author, url, JSON.stringify(events), createdAt, author, author).changes === 0) {
      return 'no-author';
    }
    sql.insertSecret.run(id, endpoint.secret, null);
    return 'created';
  });

  // The secrets in use sign until `previousUntil` beside the new one; one that an earlier rotation
  // had already given an end at or before then goes (at most the current pair is kept).
  const rotate = db.transaction((id: string, secret: string, previousUntil: number): boolean => {
    if (sql.exists.get(id) === undefined) {
      return false;
    }
    sql.dropEnded.run(id, previousUntil);
    sql.endOpen.run(previousUntil, id);
    sql.insertSecret.run(id, secret, null);
    return true;
  });

  return {
    async addWebhookEndpoint(endpoint, perAuthor) {
      const result = add.immediate(endpoint, perAuthor);
      return result === 'created' ? { result, id: endpoint.id } : { result };
    },
    async listWebhookEndpoints(author) {
      return (author === null ? sql.all.all() : sql.ofAuthor.all(author)).map(toEndpointRecord);
    },
    async getWebhookEndpoint(id) {
      const row = sql.byId.get(id);
      return row === undefined ? null : toEndpointRecord(row);
    },
    async deleteWebhookEndpoint(id) {
      return sql.remove.run(id).changes > 0;
    },
    async rotateWebhookSecret(id, secret, previousUntil) {
      return rotate.immediate(id, secret, previousUntil);
    },
  };
}
