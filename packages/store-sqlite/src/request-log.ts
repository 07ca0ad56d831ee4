import type Database from 'better-sqlite3';
import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import { parseRowId } from './row-id.js';
import type { WriteBatcher } from './write-batcher.js';

/**
 * The request log (docs/protocol.md#privacy: time, key, host, client IP, nothing else): one of the
 * three writes of every verdict, so it goes through the group commit (write-batcher.ts).
 */
export function requestLog(db: Database.Database, writes: WriteBatcher): Pick<Store, 'logRequest'> {
  const insert = db.prepare<[number, number | null, string, string]>(
    'INSERT INTO request_log (at, key_id, host, ip) VALUES (?, ?, ?, ?)',
  );
  return {
    async logRequest(entry) {
      const rowid = entry.keyId === null ? null : requireKeyId(entry.keyId, parseRowId);
      await writes.write(() => insert.run(entry.at, rowid, entry.host, entry.ip));
    },
  };
}
