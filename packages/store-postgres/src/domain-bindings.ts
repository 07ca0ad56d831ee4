import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import { createBatchQueue, MAX_BATCH } from './batch-queue.js';
import type { BatchQueue } from './batch-queue.js';
import { parseKeyId } from './key-id.js';
import type { Query } from './query.js';
import type { Transaction } from './transaction.js';
import { writeWebhookEvents } from './webhook-outbox.js';

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
 * A binding with its webhook events (domain.bound), in one transaction of its own: bind_domain
 * (migration step 2) under the key's row lock, then the events on 'bound' only
 * (docs/protocol.md#webhooks). Out of the batch, since a batch is one statement and the events'
 * recipients are read before they are written (webhook-outbox.ts); a binding is once per domain.
 */
function bindWithEvents(
  transaction: Transaction,
  bind: Bind,
  events: readonly Store.NewWebhookEvent[],
): Promise<string> {
  return transaction(async (client) => {
    const rows = await client.query<{ result: string }>({
      name: 'licence_bind_domain',
      text: 'SELECT bind_domain($1::bigint, $2::text, $3::bigint, $4::integer) AS result',
      values: [bind.keyId, bind.domain, bind.now, bind.sites],
    });
    const result = rows.rows[0]?.result ?? 'no answer';
    if (result === 'bound') await writeWebhookEvents(client, events);
    return result;
  });
}

/**
 * Binding and last seen (docs/protocol.md#verdict rules 7 and 8), atomic across processes:
 * bind_domain (migration step 2) locks the key row first, then binds under the lock. The calls of
 * one event-loop turn go together (batch-queue.ts), as named statements.
 */
export function domainBindings(query: Query, transaction: Transaction): Pick<Store, 'bindDomain' | 'touchDomain'> {
  const binds = bindBatches(query);
  const touches = touchBatches(query);
  return {
    async bindDomain(keyId, domain, sites, now, events = []) {
      const bind = { keyId: requireKeyId(keyId, parseKeyId), domain, sites, now };
      const result = events.length === 0 ? await binds.push(bind) : await bindWithEvents(transaction, bind, events);
      if (result === 'missing') throw new RangeError(`bindDomain: no key with id ${keyId}`);
      if (result === 'already' || result === 'bound' || result === 'full') return result;
      throw new Error(`bind_domain answered ${JSON.stringify(result)}`);
    },

    async touchDomain(keyId, domain, now) {
      await touches.push({ keyId: requireKeyId(keyId, parseKeyId), domain, at: now });
    },
  };
}
