import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Installation, Logger, NewKey, ProductRecord, RequestLogEntry, StoredKey, Store } from '@licence/service';
import { migrate, refuseNewerSchema, SchemaVersionError } from './migrations.js';
import { formatRowId, parseRowId } from './row-id.js';
import { keyKind, keyStatus, toBoundDomain, toProductRecord, toStoredKey } from './rows.js';
import type { DomainRow, KeyRow, ProductRow } from './rows.js';
import { createWriteBatcher } from './write-batcher.js';

export interface SqliteStoreOptions {
  /** The database file; its folder is created when missing. `:memory:` works for experiments. */
  readonly file: string;
  /** Migrations and open/close are logged here. Nothing the store logs holds a key or a hash. */
  readonly logger?: Logger;
}

/**
 * How long a writer waits for another process's write lock before failing with SQLITE_BUSY.
 * Every write here is one short transaction, so 5 s only runs out when something is badly stuck.
 */
export const BUSY_TIMEOUT_MS = 5000;

/** Rows the purge erases per statement (one short write lock each). */
export const PURGE_CHUNK = 5000;

/** A bound_domains row from a LEFT JOIN: all NULL when the key has no domain. */
type NullableDomainRow = {
  readonly domain: string | null;
  readonly first_seen: number | null;
  readonly last_seen: number | null;
};

const KEY_COLUMNS =
  'id, hash, hint, product_id, kind, status, sites, expires_at, ended_at, reason, replaced_by, created_at';

/** Keeps the first of each domain: a list with a repeat would otherwise break UNIQUE(key, domain). */
function uniqueDomains(domains: readonly string[]): string[] {
  return [...new Set(domains)];
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens (creating and migrating when needed) the embedded SQLite store
 * (CONTRIBUTING.md#architecture): one file, WAL, safe for several processes on the same machine.
 * The open is synchronous (a bad file stops the start at once, with one clear error); the methods
 * return promises to fit the Store port.
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  const { file, logger } = options;
  const inMemory = file === ':memory:' || file === '';
  if (!inMemory) {
    mkdirSync(dirname(file), { recursive: true });
  }

  let db: Database.Database;
  try {
    // `timeout` is SQLite's busy_timeout, set before anything else so that even the WAL switch
    // and the migration wait for another process instead of failing.
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${file}: cannot open the SQLite database: ${describeError(error)}`, { cause: error });
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    refuseNewerSchema(db, file);
    // WAL: readers never block the writer and the other way round (https://sqlite.org/wal.html).
    const mode: unknown = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal' && !inMemory) {
      logger?.warn({ file, journalMode: mode }, 'sqlite store: WAL is not available on this file system');
    }
    // In WAL mode NORMAL never corrupts the file and loses nothing when the process dies; only a
    // power cut may roll back the last commits. FULL would add an fsync to every request's log
    // line (docs/protocol.md#privacy) on the hot path
    // (https://sqlite.org/pragma.html#pragma_synchronous).
    db.pragma('synchronous = NORMAL');
    // Off by default in SQLite, per connection: the schema's REFERENCES only hold with it.
    db.pragma('foreign_keys = ON');
    migrate(db, file, logger);
  } catch (error) {
    db.close();
    if (error instanceof SchemaVersionError) {
      throw error;
    }
    throw new Error(`${file}: cannot open the SQLite store: ${describeError(error)}`, { cause: error });
  }
  logger?.debug({ file }, 'sqlite store: open');

  const sql = {
    keyByHash: db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE hash = ?`),
    // The hot path of every verdict: the key and its bound domains in ONE statement, so they come
    // from one snapshot without the cost of a BEGIN/COMMIT pair (the LEFT JOIN gives one row with
    // NULL domain columns for a key with no domain).
    keyWithDomainsByHash: db.prepare<[string], KeyRow & NullableDomainRow>(
      `SELECT ${KEY_COLUMNS.split(', ')
        .map((column) => `k.${column}`)
        .join(', ')}, ` +
        'd.domain, d.first_seen, d.last_seen FROM keys k LEFT JOIN bound_domains d ON d.key_id = k.id ' +
        'WHERE k.hash = ? ORDER BY d.position',
    ),
    keyById: db.prepare<[number], KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE id = ?`),
    keysOfProduct: db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE product_id = ? ORDER BY id`),
    domainsOfKey: db.prepare<[number], DomainRow>(
      'SELECT domain, first_seen, last_seen FROM bound_domains WHERE key_id = ? ORDER BY position',
    ),
    productsOfAuthorOf: db.prepare<[string], { id: string }>(
      'SELECT id FROM products WHERE author = (SELECT author FROM products WHERE id = ?) ORDER BY id',
    ),
    domainCount: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM bound_domains WHERE key_id = ?'),
    nextPosition: db.prepare<[number], { p: number }>(
      'SELECT coalesce(max(position) + 1, 0) AS p FROM bound_domains WHERE key_id = ?',
    ),
    touch: db.prepare<[number, number, string]>(
      'UPDATE bound_domains SET last_seen = max(last_seen, ?) WHERE key_id = ? AND domain = ?',
    ),
    insertDomain: db.prepare<[number, string, number, number, number]>(
      'INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)',
    ),
    insertKey: db.prepare<[string, string, string, string, number, number | null, number]>(
      'INSERT INTO keys (hash, hint, product_id, kind, sites, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    liveDevKey: db.prepare<[string], { id: number }>(
      "SELECT id FROM keys WHERE product_id = ? AND kind = 'dev' AND status = 'active'",
    ),
    endKey: db.prepare<[string, number, number]>(
      "UPDATE keys SET status = ?, ended_at = ? WHERE id = ? AND status = 'active'",
    ),
    setReplacedBy: db.prepare<[number, number]>('UPDATE keys SET replaced_by = ? WHERE id = ?'),
    revoke: db.prepare<[number, string | null, number]>(
      "UPDATE keys SET status = 'revocation', ended_at = ?, reason = ? WHERE id = ? AND status = 'active'",
    ),
    insertProduct: db.prepare<[string, string, string, number]>(
      'INSERT INTO products (id, author, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    product: db.prepare<[string], ProductRow>('SELECT id, author, name, created_at FROM products WHERE id = ?'),
    log: db.prepare<[number, number | null, string, string]>(
      'INSERT INTO request_log (at, key_id, host, ip) VALUES (?, ?, ?, ?)',
    ),
    // docs/protocol.md#privacy, in chunks (see purgeIps); the subquery walks the partial index
    // request_log_ip_at.
    purge: db.prepare<[number, number]>(
      'UPDATE request_log SET ip = NULL WHERE id IN ' +
        '(SELECT id FROM request_log WHERE at < ? AND ip IS NOT NULL LIMIT ?)',
    ),
    ping: db.prepare('SELECT 1'),
  };

  function fullKey(row: KeyRow): StoredKey {
    // docs/protocol.md#key-lifecycle: a dev key opens every product of its author, including ones
    // added after it.
    const opens =
      keyKind(row) === 'dev' ? sql.productsOfAuthorOf.all(row.product_id).map((p) => p.id) : [row.product_id];
    return toStoredKey(row, opens, sql.domainsOfKey.all(row.id));
  }

  // Reads run in a (deferred) transaction so a key and its domains come from one snapshot even
  // while another process writes (WAL readers see a consistent snapshot).
  const readKeyByHashInTransaction = db.transaction((hash: string): StoredKey | null => {
    const row = sql.keyByHash.get(hash);
    return row === undefined ? null : fullKey(row);
  });
  function readKeyByHash(hash: string): StoredKey | null {
    const rows = sql.keyWithDomainsByHash.all(hash);
    const first = rows[0];
    if (first === undefined) return null;
    // A dev key also needs its author's products: the two-statement read, in a transaction.
    if (keyKind(first) === 'dev') return readKeyByHashInTransaction(hash);
    const domains = first.domain === null ? [] : (rows as DomainRow[]);
    return toStoredKey(first, [first.product_id], domains);
  }
  const readKeyById = db.transaction((id: number): StoredKey | null => {
    const row = sql.keyById.get(id);
    return row === undefined ? null : fullKey(row);
  });
  const readInstallations = db.transaction((productId: string): Installation[] =>
    sql.keysOfProduct.all(productId).map((row) => ({
      keyId: formatRowId(row.id),
      hint: row.hint,
      kind: keyKind(row),
      status: keyStatus(row),
      domains: sql.domainsOfKey.all(row.id).map(toBoundDomain),
    })),
  );

  function keyIdOrThrow(id: string): number {
    const rowid = parseRowId(id);
    if (rowid === null) {
      throw new TypeError(`keyId: expected a key id of this store, got ${JSON.stringify(id)}`);
    }
    return rowid;
  }

  // docs/protocol.md#verdict rule 8. Runs in the write batcher, that is inside BEGIN IMMEDIATE: the
  // write lock is taken BEFORE the count, so the count and the insert cannot interleave with
  // another connection or process. (A deferred transaction would read first, and could only fail,
  // not wait, when upgrading to write.)
  function bind(keyId: number, domain: string, sites: number, now: number): 'bound' | 'already' | 'full' {
    if (sql.touch.run(now, keyId, domain).changes > 0) {
      return 'already';
    }
    const bound = sql.domainCount.get(keyId)?.n ?? 0;
    if (bound >= sites) {
      return 'full';
    }
    const position = sql.nextPosition.get(keyId)?.p ?? 0;
    sql.insertDomain.run(keyId, domain, position, now, now);
    return 'bound';
  }

  function insertDomains(
    keyId: number,
    domains: readonly string[],
    at: number,
    kept?: ReadonlyMap<string, DomainRow>,
  ): void {
    uniqueDomains(domains).forEach((domain, position) => {
      const old = kept?.get(domain);
      sql.insertDomain.run(keyId, domain, position, old?.first_seen ?? at, old?.last_seen ?? at);
    });
  }

  function insertNewKey(key: NewKey): number {
    const info = sql.insertKey.run(key.hash, key.hint, key.produit, key.kind, key.sites, key.expiresAt, key.createdAt);
    return Number(info.lastInsertRowid);
  }

  const insert = db.transaction((key: NewKey, domains: readonly string[]) => {
    if (sql.product.get(key.produit) === undefined) {
      return { result: 'no-product' } as const;
    }
    if (key.kind === 'dev' && sql.liveDevKey.get(key.produit) !== undefined) {
      return { result: 'dev-exists' } as const;
    }
    const id = insertNewKey(key);
    insertDomains(id, domains, key.createdAt);
    return { result: 'created', id: formatRowId(id) } as const;
  });

  // docs/protocol.md#key-lifecycle: regenerate / transfer in one transaction, so a crash or a
  // failed insert (a taken hash, an unknown product) leaves the old key active and no new key
  // behind.
  const replace = db.transaction(
    (oldId: number, status: 'transfert' | 'regeneration', newKey: NewKey, domains: readonly string[], now: number) => {
      // End the old key first: with one live dev key per product (index keys_one_live_dev), a
      // regenerated dev key can only be inserted once the old one is no longer active.
      if (sql.endKey.run(status, now, oldId).changes === 0) {
        return { result: 'not-active' } as const;
      }
      const kept = new Map(sql.domainsOfKey.all(oldId).map((row) => [row.domain, row]));
      const id = insertNewKey(newKey);
      sql.setReplacedBy.run(id, oldId);
      insertDomains(id, domains, now, kept);
      return { result: 'replaced', id: formatRowId(id) } as const;
    },
  );

  const writes = createWriteBatcher(db);
  let closed = false;

  const store: Store = {
    async findKeyByHash(hash) {
      return readKeyByHash(hash);
    },

    async findKeyById(id) {
      const rowid = parseRowId(id);
      return rowid === null ? null : readKeyById(rowid);
    },

    // The three writes of every verdict go through the group commit (write-batcher.ts).
    async bindDomain(keyId, domain, sites, now) {
      const rowid = keyIdOrThrow(keyId);
      return writes.write(() => bind(rowid, domain, sites, now));
    },

    async touchDomain(keyId, domain, now) {
      const rowid = keyIdOrThrow(keyId);
      await writes.write(() => sql.touch.run(now, rowid, domain));
    },

    async logRequest(entry: RequestLogEntry) {
      const rowid = entry.keyId === null ? null : keyIdOrThrow(entry.keyId);
      await writes.write(() => sql.log.run(entry.at, rowid, entry.host, entry.ip));
    },

    async addProduct(product: ProductRecord) {
      const info = sql.insertProduct.run(product.id, product.author, product.name, product.createdAt);
      return info.changes > 0 ? 'created' : 'exists';
    },

    async getProduct(id) {
      const row = sql.product.get(id);
      return row === undefined ? null : toProductRecord(row);
    },

    async insertKey(key, domains = []) {
      return insert.immediate(key, domains);
    },

    async replaceKey(oldId, status, newKey, domains, now) {
      const rowid = parseRowId(oldId);
      if (rowid === null) {
        return { result: 'not-active' };
      }
      return replace.immediate(rowid, status, newKey, domains, now);
    },

    async revokeKey(id, reason, now) {
      const rowid = parseRowId(id);
      if (rowid === null) {
        return 'not-active';
      }
      return sql.revoke.run(now, reason, rowid).changes > 0 ? 'revoked' : 'not-active';
    },

    async installations(productId) {
      return readInstallations(productId);
    },

    async purgeIps(before) {
      // A year-old day of traffic can be millions of rows. One UPDATE over all of them would hold
      // the write lock (other processes' bindings wait, then fail past busy_timeout) and this
      // event loop for seconds; chunks of PURGE_CHUNK rows, with a turn of the loop between them,
      // keep every pause short. Each chunk commits on its own: an interrupted purge simply
      // resumes where it stopped the next time.
      let erased = 0;
      for (;;) {
        const changes = sql.purge.run(before, PURGE_CHUNK).changes;
        erased += changes;
        if (changes < PURGE_CHUNK) {
          return erased;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },

    async ping() {
      sql.ping.get();
    },

    async close() {
      if (closed) {
        return;
      }
      closed = true;
      // Writes already accepted are committed (or rejected) before the file is closed.
      writes.flush();
      db.close();
      logger?.debug({ file }, 'sqlite store: closed');
    },
  };
  return store;
}
