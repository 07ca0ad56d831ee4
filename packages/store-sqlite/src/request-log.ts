import type Database from 'better-sqlite3';
import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import type { ActivityDays } from './activity.js';
import { parseRowId } from './row-id.js';
import type { WriteBatcher } from './write-batcher.js';

/**
 * The request log (docs/protocol.md#privacy: time, key, host, client IP, and the verdict's outcome,
 * docs/protocol.md#activity, nothing else): one of the writes of every verdict, so it goes through
 * the group commit (write-batcher.ts). The line and its product's count of the day go in the same
 * savepoint: the count never runs ahead of the log, nor behind it.
 */
export function requestLog(db: Database.Database, writes: WriteBatcher, days: ActivityDays): Pick<Store, 'logRequest'> {
  const insert = db.prepare<[number, number | null, string, string, string]>(
    'INSERT INTO request_log (at, key_id, host, ip, outcome) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    async logRequest(entry) {
      const rowid = entry.keyId === null ? null : requireKeyId(entry.keyId, parseRowId);
      await writes.write(() => {
        insert.run(entry.at, rowid, entry.host, entry.ip, entry.outcome);
        days.count(entry);
      });
    },
  };
}
