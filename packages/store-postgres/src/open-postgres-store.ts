import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Installation, NewKey, ProductRecord, RequestLogEntry, StoredKey, Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import { createPool, describeDatabase, describeError } from './create-pool.js';
import type { PostgresStoreOptions } from './create-pool.js';
import { parseKeyId } from './key-id.js';
import { migrate, SchemaVersionError } from './migrations.js';
import { KEY_SELECT, domainsOf, toInstallation, toProductRecord, toStoredKey } from './rows.js';
import type { InstallationRow, KeyRow, ProductRow } from './rows.js';

/** Rows the purge erases per statement (one short transaction each). */
export const PURGE_CHUNK = 5000;

/** PostgreSQL's unique_violation (https://www.postgresql.org/docs/15/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';

/** Integrity constraint violations (class 23): a fault of ONE row, not of the database. */
function isIntegrityViolation(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('23');
}

/** The key looked up, or the error of its row alone (the others of the batch are not failed by it). */
type FoundKey = StoredKey | null | Error;

/** Keeps the first of each domain: a list with a repeat would otherwise break the primary key. */
function uniqueDomains(domains: readonly string[]): string[] {
  return [...new Set(domains)];
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION && error.constraint === constraint;
}

function keyIdOrThrow(id: string): string {
  const parsed = parseKeyId(id);
  if (parsed === null) {
    throw new TypeError(`keyId: expected a key id of this store, got ${JSON.stringify(id)}`);
  }
  return parsed;
}

/**
 * Inserts `domains` (deduplicated, in order) for `keyId`; a domain also bound to `keptFrom` keeps
 * its first and last seen from there (docs/protocol.md#key-lifecycle: a transfer carries the old
 * bindings over).
 */
async function insertDomains(
  client: PoolClient,
  keyId: string,
  domains: readonly string[],
  at: number,
  keptFrom: string | null,
): Promise<void> {
  const list = uniqueDomains(domains);
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

async function insertNewKey(client: PoolClient, key: NewKey): Promise<string> {
  const result = await client.query<{ id: string }>(
    'INSERT INTO keys (hash, hint, product_id, kind, sites, expires_at, created_at) ' +
      'VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id',
    [key.hash, key.hint, key.produit, key.kind, key.sites, key.expiresAt, key.createdAt],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) {
    throw new Error('insert into keys returned no id');
  }
  return id;
}

/**
 * Opens the PostgreSQL store (CONTRIBUTING.md#architecture: several processes or machines on one
 * database): a `pg` pool with statement and connection timeouts so no request hangs when the
 * database does, and the schema brought to SCHEMA_VERSION. Rejects with one clear error (a
 * SchemaVersionError for a database of a newer build) and leaves no connection open then.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  return openStoreOnPool(options, createPool(options));
}

/**
 * The store on `pool` (which it migrates first, and ends on `close` or on a failed open): what
 * `openPostgresStore` and `openPostgres` share, so the latter can hand the same pool to the
 * rate limiter.
 */
export async function openStoreOnPool(options: PostgresStoreOptions, pool: pg.Pool): Promise<Store> {
  const { connectionString, logger } = options;
  const database = describeDatabase(connectionString);

  /**
   * Runs `work` in one transaction on one connection. A failed transaction is rolled back; when
   * even the ROLLBACK fails (the connection is broken), the connection is dropped, not reused.
   */
  async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A checked-out connection has no 'error' listener of the pool's: one that breaks between two
    // statements would otherwise end the process. The statement in flight rejects anyway.
    const onError = (error: Error): void => {
      logger?.warn({ err: describeError(error) }, 'postgres store: connection lost during a transaction');
    };
    client.on('error', onError);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        logger?.warn({ err: describeError(rollbackError) }, 'postgres store: rollback failed, connection dropped');
      }
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** One statement on any pooled connection: its own transaction, its own snapshot. */
  async function query<R extends QueryResultRow>(
    statement: string | { readonly name: string; readonly text: string },
    values: readonly unknown[] = [],
  ): Promise<R[]> {
    const config = typeof statement === 'string' ? { text: statement } : { name: statement.name, text: statement.text };
    return (await pool.query<R>({ ...config, values: [...values] })).rows;
  }

  // Open: the first connection both proves the server answers and runs the migrations.
  try {
    const client = await pool.connect();
    try {
      await migrate(client, database, logger);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch((endError: unknown) => {
      logger?.warn({ err: describeError(endError) }, 'postgres store: closing the pool after a failed open failed');
    });
    if (error instanceof SchemaVersionError) {
      throw error;
    }
    throw new Error(`${database}: cannot open the PostgreSQL store: ${describeError(error)}`, { cause: error });
  }
  logger?.debug({ database }, 'postgres store: open');

  async function keyWhere(condition: string, value: string): Promise<StoredKey | null> {
    // One statement, so the key, its products and its domains come from one snapshot.
    const row = (await query<KeyRow>(`${KEY_SELECT} WHERE ${condition}`, [value]))[0];
    return row === undefined ? null : toStoredKey(row);
  }

  // The hot path's reads and writes go by batch (batch-queue.ts): the lookups of every request
  // in one event-loop turn in one statement, and their log entries in another. Named statements
  // are parsed and planned once per connection.
  const keysByHash = createBatchQueue<string, FoundKey>(async (hashes) => {
    const rows = await query<KeyRow>(
      { name: 'licence_keys_by_hash', text: `${KEY_SELECT} WHERE k.hash = ANY($1::text[])` },
      [[...new Set(hashes)]],
    );
    const byHash = new Map(rows.map((row) => [row.hash, row]));
    return hashes.map((hash) => {
      const row = byHash.get(hash);
      if (row === undefined) return null;
      try {
        return toStoredKey(row);
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    });
  }, MAX_BATCH);

  const binds = createBatchQueue<
    { readonly keyId: string; readonly domain: string; readonly sites: number; readonly now: number },
    string
  >(async (batch) => {
    const rows = await query<{ ord: string; result: string }>(
      {
        name: 'licence_bind_domains',
        text: 'SELECT ord, result FROM bind_domains($1::bigint[], $2::text[], $3::bigint[], $4::integer[])',
      },
      [
        batch.map((bind) => bind.keyId),
        batch.map((bind) => bind.domain),
        batch.map((bind) => bind.now),
        batch.map((bind) => bind.sites),
      ],
    );
    const results: string[] = [];
    for (const row of rows) results[Number(row.ord) - 1] = row.result;
    return batch.map((_, index) => results[index] ?? 'no answer');
  }, MAX_BATCH);

  const touches = createBatchQueue<{ readonly keyId: string; readonly domain: string; readonly at: number }, null>(
    async (batch) => {
      await query(
        { name: 'licence_touch_domains', text: 'SELECT touch_domains($1::bigint[], $2::text[], $3::bigint[])' },
        [batch.map((touch) => touch.keyId), batch.map((touch) => touch.domain), batch.map((touch) => touch.at)],
      );
      return batch.map(() => null);
    },
    MAX_BATCH,
  );

  const LOG_INSERT = {
    name: 'licence_log_requests',
    text: 'INSERT INTO request_log (at, key_id, host, ip) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])',
  };
  const logEntries = createBatchQueue<RequestLogEntry, Error | null>(async (entries) => {
    const insert = (list: readonly RequestLogEntry[]) =>
      query(LOG_INSERT, [
        list.map((e) => e.at),
        list.map((e) => e.keyId),
        list.map((e) => e.host),
        list.map((e) => e.ip),
      ]);
    try {
      await insert(entries);
      return entries.map(() => null);
    } catch (error) {
      // One bad row (a key id that is not there) must not fail the requests logged beside it:
      // each is then written alone and gets its own answer. Any other error (the database is
      // down, a timeout) is every entry's, at once, with no second wait.
      if (!isIntegrityViolation(error) || entries.length === 1) throw error;
      return Promise.all(
        entries.map((entry) =>
          insert([entry]).then(
            () => null,
            (single: unknown) => (single instanceof Error ? single : new Error(String(single))),
          ),
        ),
      );
    }
  }, MAX_BATCH);

  let closed = false;

  const store: Store = {
    async findKeyByHash(hash) {
      const found = await keysByHash.push(hash);
      if (found instanceof Error) throw found;
      return found;
    },

    async findKeyById(id) {
      const keyId = parseKeyId(id);
      return keyId === null ? null : keyWhere('k.id = $1', keyId);
    },

    async bindDomain(keyId, domain, sites, now) {
      // docs/protocol.md#verdict rule 8, atomic across processes: bind_domain (migration step 3)
      // locks the key row first, then binds under the lock; the bindings of one event-loop turn go
      // together.
      const result = await binds.push({ keyId: keyIdOrThrow(keyId), domain, sites, now });
      if (result === 'missing') throw new RangeError(`bindDomain: no key with id ${keyId}`);
      if (result === 'already' || result === 'bound' || result === 'full') return result;
      throw new Error(`bind_domain answered ${JSON.stringify(result)}`);
    },

    async touchDomain(keyId, domain, now) {
      await touches.push({ keyId: keyIdOrThrow(keyId), domain, at: now });
    },

    async logRequest(entry: RequestLogEntry) {
      const id = entry.keyId === null ? null : keyIdOrThrow(entry.keyId);
      const failed = await logEntries.push({ ...entry, keyId: id });
      if (failed !== null) throw failed;
    },

    async addProduct(product: ProductRecord) {
      const result = await pool.query(
        'INSERT INTO products (id, author, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [product.id, product.author, product.name, product.createdAt],
      );
      return result.rowCount === 1 ? 'created' : 'exists';
    },

    async getProduct(id) {
      const row = (await query<ProductRow>('SELECT id, author, name, created_at FROM products WHERE id = $1', [id]))[0];
      return row === undefined ? null : toProductRecord(row);
    },

    async insertKey(key, domains = []) {
      try {
        return await transaction(async (client) => {
          const product = await client.query('SELECT 1 FROM products WHERE id = $1', [key.produit]);
          if (product.rowCount === 0) {
            return { result: 'no-product' } as const;
          }
          if (key.kind === 'dev') {
            const live = await client.query(
              "SELECT 1 FROM keys WHERE product_id = $1 AND kind = 'dev' AND status = 'active'",
              [key.produit],
            );
            if ((live.rowCount ?? 0) > 0) {
              return { result: 'dev-exists' } as const;
            }
          }
          const id = await insertNewKey(client, key);
          await insertDomains(client, id, domains, key.createdAt, null);
          return { result: 'created', id } as const;
        });
      } catch (error) {
        // Two processes issuing a dev key at once both pass the check above; the partial unique
        // index lets one in and fails the other, which is the same answer
        // (docs/protocol.md#key-lifecycle: 409).
        if (isUniqueViolation(error, 'keys_one_live_dev')) {
          return { result: 'dev-exists' } as const;
        }
        throw error;
      }
    },

    async replaceKey(oldId, status, newKey, domains, now) {
      const id = parseKeyId(oldId);
      if (id === null) {
        return { result: 'not-active' };
      }
      // docs/protocol.md#key-lifecycle: regenerate / transfer in one transaction: a failed insert
      // (a taken hash, an unknown product) leaves the old key active and no new key behind.
      return transaction(async (client) => {
        // End the old key first (its row stays locked until COMMIT, so a concurrent replace or
        // revoke waits, then finds it no longer active). With one live dev key per product, a
        // regenerated dev key can only be inserted once the old one is no longer active.
        const ended = await client.query(
          "UPDATE keys SET status = $1, ended_at = $2 WHERE id = $3 AND status = 'active'",
          [status, now, id],
        );
        if (ended.rowCount === 0) {
          return { result: 'not-active' } as const;
        }
        const newId = await insertNewKey(client, newKey);
        await client.query('UPDATE keys SET replaced_by = $1 WHERE id = $2', [newId, id]);
        await insertDomains(client, newId, domains, now, id);
        return { result: 'replaced', id: newId } as const;
      });
    },

    async revokeKey(id, reason, now) {
      const keyId = parseKeyId(id);
      if (keyId === null) {
        return 'not-active';
      }
      const result = await pool.query(
        "UPDATE keys SET status = 'revocation', ended_at = $1, reason = $2 WHERE id = $3 AND status = 'active'",
        [now, reason, keyId],
      );
      return result.rowCount === 1 ? 'revoked' : 'not-active';
    },

    async installations(productId): Promise<readonly Installation[]> {
      const rows = await query<InstallationRow>(
        `SELECT k.id::text AS id, k.hint, k.kind, k.status, ${domainsOf('k.id')} AS domains
         FROM keys k WHERE k.product_id = $1 ORDER BY k.id`,
        [productId],
      );
      return rows.map(toInstallation);
    },

    async purgeIps(before) {
      // docs/protocol.md#privacy. A year-old day of traffic can be millions of rows: chunks of
      // PURGE_CHUNK rows, each its own short statement, keep every one far below statement_timeout
      // and hold few row locks at a time; an interrupted purge resumes where it stopped the next
      // time. SKIP LOCKED lets two processes purging at once share the work instead of queueing,
      // and `ip IS NOT NULL` in the outer WHERE is re-checked on the locked row, so nothing is
      // counted twice.
      let erased = 0;
      for (;;) {
        const result = await pool.query(
          'UPDATE request_log SET ip = NULL WHERE ip IS NOT NULL AND id IN ' +
            '(SELECT id FROM request_log WHERE at < $1 AND ip IS NOT NULL LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [before, PURGE_CHUNK],
        );
        const changes = result.rowCount ?? 0;
        erased += changes;
        if (changes < PURGE_CHUNK) {
          return erased;
        }
      }
    },

    async ping() {
      await pool.query('SELECT 1');
    },

    async close() {
      if (closed) {
        return;
      }
      closed = true;
      // Waits for the connections in use to be released, then ends them all.
      await pool.end();
      logger?.debug({ database }, 'postgres store: closed');
    },
  };
  return store;
}
