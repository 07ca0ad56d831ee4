import { asError } from '@licence/core';
import type { Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import type { BatchQueue } from './batch-queue.js';
import { parseKeyId } from './key-id.js';
import type { Query } from './query.js';
import { domainsOf, KEY_SELECT, toInstallation, toStoredKey } from './rows.js';
import type { InstallationRow, KeyRow } from './rows.js';

/** The key looked up, or the error of its row alone (the others of the batch are not failed by it). */
type FoundKey = Store.StoredKey | null | Error;

/**
 * The hot path's lookups go by batch (batch-queue.ts): those of every request in one event-loop
 * turn in one named statement. A row that cannot be read fails its own lookup only.
 */
function keysByHash(query: Query): BatchQueue<string, FoundKey> {
  return createBatchQueue<string, FoundKey>(async (hashes) => {
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
        return asError(error);
      }
    });
  }, MAX_BATCH);
}

/**
 * The key lookups, each one statement, so a key, the products it opens and its domains come from
 * one snapshot.
 */
export function keyReads(query: Query): Pick<Store, 'findKeyByHash' | 'findKeyById' | 'installations'> {
  const byHash = keysByHash(query);
  return {
    async findKeyByHash(hash) {
      const found = await byHash.push(hash);
      if (found instanceof Error) throw found;
      return found;
    },

    async findKeyById(id) {
      const keyId = parseKeyId(id);
      if (keyId === null) return null;
      const row = (await query<KeyRow>(`${KEY_SELECT} WHERE k.id = $1`, [keyId]))[0];
      return row === undefined ? null : toStoredKey(row);
    },

    async installations(productId) {
      const rows = await query<InstallationRow>(
        `SELECT k.id::text AS id, k.hint, k.kind, k.status, ${domainsOf('k.id')} AS domains
         FROM keys k WHERE k.product_id = $1 ORDER BY k.id`,
        [productId],
      );
      return rows.map(toInstallation);
    },
  };
}
