import type pg from 'pg';
import type { QueryResultRow } from 'pg';

/** A statement, or a named one (parsed and planned once per connection). */
export type Statement = string | { readonly name: string; readonly text: string };

/** One statement on any pooled connection: its own transaction, its own snapshot; its rows. */
export type Query = <R extends QueryResultRow>(statement: Statement, values?: readonly unknown[]) => Promise<R[]>;

export function poolQuery(pool: pg.Pool): Query {
  return async <R extends QueryResultRow>(statement: Statement, values: readonly unknown[] = []): Promise<R[]> => {
    const config = typeof statement === 'string' ? { text: statement } : { name: statement.name, text: statement.text };
    return (await pool.query<R>({ ...config, values: [...values] })).rows;
  };
}
