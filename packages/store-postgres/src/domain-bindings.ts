import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import type { BatchQueue } from './batch-queue.js';
import { parseKeyId } from './key-id.js';
import type { Query } from './query.js';

interface Bind {
  readonly keyId: string;
  readonly domain: string;
  readonly sites: number;
  readonly now: number;
}

interface Touch {
  readonly keyId: string;
  readonly domain: string;
  readonly at: number;
}

/** The bindings of one event-loop turn, one call of bind_domains (migration step 2) for all. */
function bindBatches(query: Query): BatchQueue<Bind, string> {
  return createBatchQueue<Bind, string>(async (batch) => {
    const rows = await query<{ ord: string; result: string }>(
      {
        name: 'licence_bind_domains',
        text: 'SELECT ord, result FROM bind_domains($1::bigint[], $2::text[], $3::bigint[], $4::integer[])',
      },
      [
        batch.map((bind) => bind.keyId),
        batch.map((bind) => bind.domain),
        batch.map((bind) => bind.now),
        batch.map((bind) => bind.sites),
      ],
    );
    const results: string[] = [];
    for (const row of rows) results[Number(row.ord) - 1] = row.result;
    return batch.map((_, index) => results[index] ?? 'no answer');
  }, MAX_BATCH);
}

/** The last-seen updates of one event-loop turn, one call of touch_domains (migration step 2). */
function touchBatches(query: Query): BatchQueue<Touch, null> {
  return createBatchQueue<Touch, null>(async (batch) => {
    await query(
      { name: 'licence_touch_domains', text: 'SELECT touch_domains($1::bigint[], $2::text[], $3::bigint[])' },
      [batch.map((touch) => touch.keyId), batch.map((touch) => touch.domain), batch.map((touch) => touch.at)],
    );
    return batch.map(() => null);
  }, MAX_BATCH);
}

/**
 * Binding and last seen (docs/protocol.md#verdict rules 7 and 8), atomic across processes:
 * bind_domain (migration step 2) locks the key row first, then binds under the lock. The calls of
 * one event-loop turn go together (batch-queue.ts), as named statements.
 */
export function domainBindings(query: Query): Pick<Store, 'bindDomain' | 'touchDomain'> {
  const binds = bindBatches(query);
  const touches = touchBatches(query);
  return {
    async bindDomain(keyId, domain, sites, now) {
      const result = await binds.push({ keyId: requireKeyId(keyId, parseKeyId), domain, sites, now });
      if (result === 'missing') throw new RangeError(`bindDomain: no key with id ${keyId}`);
      if (result === 'already' || result === 'bound' || result === 'full') return result;
      throw new Error(`bind_domain answered ${JSON.stringify(result)}`);
    },

    async touchDomain(keyId, domain, now) {
      await touches.push({ keyId: requireKeyId(keyId, parseKeyId), domain, at: now });
    },
  };
}
