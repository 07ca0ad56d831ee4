import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { webhookDeliveryId } from '@licence/service';
import type { Store, WebhookEventType } from '@licence/service';
import { openPostgresStore } from './open-postgres-store.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const postgres = await throwawayPostgres('store-postgres webhook outbox');

const SECRET = `whsec_${'A'.repeat(43)}=`;
let hashes = 0;

function newKey(fields: Partial<Store.NewKey> = {}): Store.NewKey {
  hashes += 1;
  const hash = hashes.toString(16).padStart(64, 'a');
  return { hash, hint: 'K7Q2', produit: 'theme', kind: 'buyer', sites: 1, expiresAt: null, createdAt: 10, ...fields };
}

function event(id: string, type: WebhookEventType, fields: Partial<Store.NewWebhookEvent> = {}): Store.NewWebhookEvent {
  return { id, type, produit: 'theme', at: 20, body: `{"type":"${type}"}`, dedupe: null, ...fields };
}

/** The events and deliveries as the database holds them, read around the port. */
async function outbox(url: string): Promise<{ events: string[]; deliveries: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const events = await client.query<{ id: string }>('SELECT id FROM webhook_events ORDER BY seq');
    const deliveries = await client.query<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id');
    return { events: events.rows.map((row) => row.id), deliveries: deliveries.rows.map((row) => row.id) };
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgres.available)('the webhook outbox on PostgreSQL (docs/protocol.md#webhooks)', () => {
  let url: string;
  let store: Store;

  beforeEach(async () => {
    url = await postgres.cluster().createDatabase();
    store = await openPostgresStore({ connectionString: url });
    for (const author of ['alice', 'bob']) await store.addAuthor({ id: author, name: author, createdAt: 1 });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
    const endpoints = [
      { id: 'wh_alice', author: 'alice', events: ['key.issued', 'key.revoked'] },
      { id: 'wh_bob', author: 'bob', events: ['key.issued'] },
      { id: 'wh_all', author: null, events: ['key.issued', 'domain.bound'] },
      { id: 'wh_all_revoked', author: null, events: ['key.revoked'] },
    ] as const;
    for (const endpoint of endpoints) {
      const url = `https://${endpoint.id}.example/`;
      expect((await store.addWebhookEndpoint({ ...endpoint, url, createdAt: 2, secret: SECRET })).result).toBe(
        'created',
      );
    }
  });

  afterEach(async () => {
    await store.close();
  });

  it("fans an event out to the endpoints of its product's author and of every author that subscribe to it", async () => {
    expect((await store.insertKey(newKey(), [], [event('msg_issued', 'key.issued')])).result).toBe('created');
    const { deliveries } = await outbox(url);
    // Named as webhookDeliveryId names them, as every store does; not wh_bob (another author's).
    expect(deliveries).toEqual(
      ['wh_alice', 'wh_all'].map((endpoint) => webhookDeliveryId('msg_issued', endpoint)).sort(),
    );
    expect((await store.listWebhookDeliveries('wh_bob', 10)).length).toBe(0);
    const [claimed] = await store.claimWebhookDeliveries(20, 80, 1);
    expect(claimed?.body).toBe('{"type":"key.issued"}');
  });

  it('writes nothing when the change is refused: no product, not active, already bound, full', async () => {
    expect((await store.insertKey(newKey({ produit: 'nope' }), [], [event('msg_1', 'key.issued')])).result).toBe(
      'no-product',
    );
    const created = await store.insertKey(newKey({ sites: 1 }), ['a.fr']);
    if (created.result !== 'created') throw new Error(created.result);
    expect(await store.bindDomain(created.id, 'a.fr', 1, 30, [event('msg_2', 'domain.bound')])).toBe('already');
    expect(await store.bindDomain(created.id, 'b.fr', 1, 30, [event('msg_3', 'domain.bound')])).toBe('full');
    expect(await store.revokeKey(created.id, null, 31)).toBe('revoked');
    expect(await store.revokeKey(created.id, null, 32, [event('msg_4', 'key.revoked')])).toBe('not-active');
    const replaced = await store.replaceKey(created.id, 'regeneration', newKey(), [], 33, [
      event('msg_5', 'key.regenerated'),
    ]);
    expect(replaced).toEqual({ result: 'not-active' });
    expect(await outbox(url)).toEqual({ events: [], deliveries: [] });
  });

  it('stores the events of a binding, a revocation and a replacement with the change', async () => {
    const created = await store.insertKey(newKey({ sites: 2 }));
    if (created.result !== 'created') throw new Error(created.result);
    expect(await store.bindDomain(created.id, 'a.fr', 2, 30, [event('msg_bound', 'domain.bound')])).toBe('bound');
    const replaced = await store.replaceKey(created.id, 'transfert', newKey(), ['a.fr'], 31, [
      event('msg_moved', 'key.transferred'),
    ]);
    if (replaced.result !== 'created') throw new Error(replaced.result);
    expect(await store.revokeKey(replaced.id, 'fraud', 32, [event('msg_revoked', 'key.revoked')])).toBe('revoked');
    expect((await outbox(url)).events).toEqual(['msg_bound', 'msg_moved', 'msg_revoked']);
    expect((await store.listWebhookDeliveries('wh_all', 10)).map((delivery) => delivery.eventId)).toEqual([
      'msg_bound',
    ]);
    expect((await store.listWebhookDeliveries('wh_all_revoked', 10)).map((delivery) => delivery.eventId)).toEqual([
      'msg_revoked',
    ]);
  });

  it('rolls the change back when its events cannot be written (an event id stored twice)', async () => {
    expect(await store.addWebhookEvent(event('msg_taken', 'key.issued'))).toBe('added');
    const key = newKey();
    await expect(store.insertKey(key, ['a.fr'], [event('msg_taken', 'key.issued')])).rejects.toThrow(
      /webhook_events_id_key/,
    );
    expect(await store.findKeyByHash(key.hash)).toBeNull();

    const created = await store.insertKey(newKey({ sites: 2 }));
    if (created.result !== 'created') throw new Error(created.result);
    await expect(store.bindDomain(created.id, 'a.fr', 2, 30, [event('msg_taken', 'domain.bound')])).rejects.toThrow(
      /webhook_events_id_key/,
    );
    await expect(store.revokeKey(created.id, null, 31, [event('msg_taken', 'key.revoked')])).rejects.toThrow(
      /webhook_events_id_key/,
    );
    const replacement = newKey();
    await expect(
      store.replaceKey(created.id, 'regeneration', replacement, [], 32, [event('msg_taken', 'key.regenerated')]),
    ).rejects.toThrow(/webhook_events_id_key/);
    const kept = await store.findKeyById(created.id);
    expect([kept?.status, kept?.domains, kept?.replacedBy]).toEqual(['active', [], null]);
    expect(await store.findKeyByHash(replacement.hash)).toBeNull();
    expect((await outbox(url)).events).toEqual(['msg_taken']);
  });

  it('adds one of several racing events with the same dedupe, from two processes', async () => {
    const other = await openPostgresStore({ connectionString: url });
    try {
      const refused = (i: number) => event(`msg_r${i}`, 'verdict.refused', { dedupe: 'verdict.refused:1:b.fr:20000' });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).addWebhookEvent(refused(i))),
      );
      expect(answers.filter((answer) => answer === 'added')).toHaveLength(1);
      expect(answers.filter((answer) => answer === 'duplicate')).toHaveLength(9);
      expect((await outbox(url)).events).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
