import pg from 'pg';
import { asError } from '@licence/core';
import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import type { BatchQueue } from './batch-queue.js';
import { parseKeyId } from './key-id.js';
import type { Query } from './query.js';
import { utcDay } from '@licence/service';

type RequestLogEntry = Store.RequestLogEntry;

/** Integrity constraint violations (class 23): a fault of ONE row, not of the database. */
function isIntegrityViolation(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('23');
}

/**
 * The lines of a batch and their activity counts in ONE statement, so in one transaction: a line
 * is never written without its count, nor counted without its line (docs/protocol.md#activity).
 * The counts are summed per (product, day, outcome) first, since one statement may not update a
 * row twice, then upserted in key order: two processes' batches lock the rows they share in the
 * same order and queue instead of deadlocking. An entry without a product (an unknown key) is
 * logged and counted nowhere.
 */
const LOG_INSERT = {
  name: 'licence_log_requests',
  text: `
  WITH lines AS (
    INSERT INTO request_log (at, key_id, host, ip, outcome)
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[])
  )
  INSERT INTO activity_days AS a (product_id, day, outcome, count)
  SELECT u.product_id, u.day, u.outcome, count(*)
    FROM unnest($6::text[], $7::integer[], $5::text[]) AS u(product_id, day, outcome)
   WHERE u.product_id IS NOT NULL
   GROUP BY u.product_id, u.day, u.outcome
   ORDER BY u.product_id, u.day, u.outcome
  ON CONFLICT (product_id, day, outcome) DO UPDATE SET count = a.count + EXCLUDED.count`,
};

/** The log entries of one event-loop turn in one statement; each gets its own answer. */
function logBatches(query: Query): BatchQueue<RequestLogEntry, Error | null> {
  const insert = (list: readonly RequestLogEntry[]) =>
    query(LOG_INSERT, [
      list.map((e) => e.at),
      list.map((e) => e.keyId),
      list.map((e) => e.host),
      list.map((e) => e.ip),
      list.map((e) => e.outcome),
      list.map((e) => e.produit),
      list.map((e) => utcDay(e.at)),
    ]);
  return createBatchQueue<RequestLogEntry, Error | null>(async (entries) => {
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
            (single: unknown) => asError(single),
          ),
        ),
      );
    }
  }, MAX_BATCH);
}

/**
 * The request log (docs/protocol.md#privacy: time, key, host, client IP, outcome, nothing else)
 * and the per-day activity counts it feeds (docs/protocol.md#activity).
 */
export function requestLog(query: Query): Pick<Store, 'logRequest'> {
  const entries = logBatches(query);
  return {
    async logRequest(entry) {
      const keyId = entry.keyId === null ? null : requireKeyId(entry.keyId, parseKeyId);
      const failed = await entries.push({ ...entry, keyId });
      if (failed !== null) throw failed;
    },
  };
}
