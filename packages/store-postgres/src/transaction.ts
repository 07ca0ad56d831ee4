import type pg from 'pg';
import type { PoolClient } from 'pg';
import { asError, describeError } from '@licence/core';
import type { Logger } from '@licence/service';

/** Runs `work` in one transaction on one connection of the pool, and resolves with its result. */
export type Transaction = <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>;

/**
 * Transactions on `pool`. A failed transaction is rolled back; when even the ROLLBACK fails (the
 * connection is broken), the connection is dropped, not reused.
 */
export function poolTransaction(pool: pg.Pool, logger: Logger | undefined): Transaction {
  return async (work) => {
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
        broken = asError(rollbackError);
        logger?.warn({ err: describeError(rollbackError) }, 'postgres store: rollback failed, connection dropped');
      }
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  };
}
