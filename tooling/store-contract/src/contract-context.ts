import type { Store } from '@licence/service';

/**
 * A request-log row as the storage itself holds it. The port has no read of the log (the service
 * only ever writes and purges it), so each store's test reads its own tables to show the contract
 * that the purge really deletes rows, not only a field of them (docs/protocol.md#privacy), and that
 * a line records its verdict's outcome (docs/protocol.md#activity).
 */
export interface StoredLogRow {
  readonly at: number;
  readonly host: string;
  readonly ip: string | null;
  /** The verdict's outcome; null only for lines a store logged before it recorded outcomes. */
  readonly outcome: string | null;
}

/** What the parts of the contract (contract-*.ts) share: the store of the running test. */
export interface ContractContext {
  /** The store opened for the running test (a fresh one each test). */
  readonly store: () => Store;
  /** Every request-log row the storage holds, in any order, read around the port. */
  readonly loggedRows: () => Promise<readonly StoredLogRow[]>;
}

/** 2026-09-21T14:13:20Z, in seconds (ports.ts: every time is in seconds). */
export const T0 = 1_790_000_000;

/** The UTC day of a time, as the port counts days (ports.ts ActivityCount). */
export function dayOf(at: number): number {
  return Math.floor(at / 86400);
}

export function product(
  id: string,
  author = 'alice',
  createdAt = T0,
  staging: readonly string[] = [],
): Store.ProductRecord {
  return { id, author, name: `Product ${id}`, createdAt, staging };
}
