import pg from 'pg';
import { describeError, errorMessage } from '@licence/core';
import type { Logger } from '@licence/service';

export interface PostgresPoolOptions {
  /** Connections per process (default 10). Several processes share the server's max_connections. */
  readonly max?: number;
  /** Server-side `statement_timeout` of every statement, in ms (default 2000). */
  readonly statementTimeoutMs?: number;
  /** How long to wait for a connection, new or from the pool, in ms (default 2000). */
  readonly connectionTimeoutMs?: number;
}

export interface PostgresStoreOptions {
  /**
   * `postgres://user:password@host:port/database` (DATABASE_URL, docs/protocol.md#configuration).
   * Never logged.
   */
  readonly connectionString: string;
  /** Migrations, open/close and lost connections are logged here; never a key, a hash or an IP. */
  readonly logger?: Logger;
  readonly pool?: PostgresPoolOptions;
}

export const DEFAULT_POOL_MAX = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 2000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 2000;
/**
 * The client-side guard behind `statement_timeout`: a server that stopped answering at all (a
 * frozen host, a cut network) cannot cancel its own statement, so pg gives up this much later and
 * drops the connection. Over loopback the server's own cancel always comes first.
 */
export const QUERY_TIMEOUT_MARGIN_MS = 250;
/**
 * A session idle inside a transaction this long is ended by the server, releasing its row locks:
 * a process frozen in the middle of a binding then blocks other processes' bindings for this
 * long at most (they fail at their statement_timeout meanwhile: a 5xx, never a wrong verdict).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

/**
 * The database as error messages and logs name it: host, port and database, never the user or
 * password (the connection string may hold one).
 */
export function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `postgres://${url.host}${url.pathname}`;
  } catch {
    // Not a URL (pg also takes "host=... dbname=..." strings): say nothing that could hold a secret.
    return 'the PostgreSQL database';
  }
}

/**
 * The store's `pg` pool with the timeouts that keep a request from hanging when the database does
 * (docs/protocol.md#storage): a statement the server has not finished after `statementTimeoutMs` is
 * cancelled by the server itself (`statement_timeout`, lock waits included); a server that does not
 * answer at all is given up by the client `QUERY_TIMEOUT_MARGIN_MS` later; a connection, new or
 * from the pool, is waited for `connectionTimeoutMs` at most.
 */
export function createPool(options: PostgresStoreOptions): pg.Pool {
  const { logger } = options;
  const statementTimeoutMs = options.pool?.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.pool?.max ?? DEFAULT_POOL_MAX,
    connectionTimeoutMillis: options.pool?.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    application_name: 'licence',
  });
  // An idle connection the server drops (a restart, an admin's kill) is reported here; without a
  // listener Node would end the process. The pool opens a new one on the next request.
  pool.on('error', (error) => {
    if (logger === undefined) {
      console.warn(`postgres store: idle connection lost: ${errorMessage(error)}`);
    } else {
      logger.warn({ err: describeError(error) }, 'postgres store: idle connection lost');
    }
  });
  return pool;
}
