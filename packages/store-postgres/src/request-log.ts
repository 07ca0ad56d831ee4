import pg from 'pg';
import { asError } from '@licence/core';
import { requireKeyId } from '@licence/service';
import type { RequestLogEntry, Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import type { BatchQueue } from './batch-queue.js';
import { parseKeyId } from './key-id.js';
import type { Query } from './query.js';

/** Integrity constraint violations (class 23): a fault of ONE row, not of the database. */
function isIntegrityViolation(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && error.code.startsWith('23');
}

const LOG_INSERT = {
  name: 'licence_log_requests',
  text: 'INSERT INTO request_log (at, key_id, host, ip) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])',
};

/** The log entries of one event-loop turn in one statement; each gets its own answer. */
function logBatches(query: Query): BatchQueue<RequestLogEntry, Error | null> {
  const insert = (list: readonly RequestLogEntry[]) =>
    query(LOG_INSERT, [
      list.map((e) => e.at),
      list.map((e) => e.keyId),
      list.map((e) => e.host),
      list.map((e) => e.ip),
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

/** The request log (docs/protocol.md#privacy: time, key, host, client IP, nothing else). */
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
