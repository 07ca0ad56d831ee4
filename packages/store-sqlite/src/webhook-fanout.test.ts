import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Store, webhookDeliveryId } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';
import { CLAIM_FANOUT_SLICE } from './webhook-claim.js';

const T = 1_790_000_000;

/** Deliveries and the fan-out's cursor, read around the port on a connection of its own. */
function outboxState(file: string): { deliveries: number; cursor: number } {
  const db = new Database(file, { readonly: true });
  try {
    const deliveries = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_deliveries').get()?.n ?? -1;
    const cursor = db.prepare<[], { seq: number }>('SELECT seq FROM webhook_fanout').get()?.seq ?? -1;
    return { deliveries, cursor };
  } finally {
    db.close();
  }
}

const event = (id: string): Store.NewWebhookEvent => ({
  id,
  type: 'verdict.refused',
  produit: 'theme',
  at: T,
  body: '{}',
  dedupe: null,
});

const endpoint = (id: string): Store.NewWebhookEndpoint => ({
  id,
  author: 'alice',
  url: `https://shop.example/${id}`,
  events: ['verdict.refused'],
  createdAt: T,
  secret: `whsec_${id}`,
});

describe('the webhook fan-out in SQLite (webhook-fanout.ts)', () => {
  let dir: string;
  let file: string;
  let store: Store;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-webhook-fanout-'));
    file = join(dir, 'licence.db');
    store = openSqliteStore({ file });
    await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: T });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: T, staging: [] });
    await store.addWebhookEndpoint(endpoint('wh_a'));
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("leaves the event's write alone: its deliveries are made by the next claim, all at once", async () => {
    expect(await store.addWebhookEvent(event('msg_1'))).toBe('added');
    expect(await store.addWebhookEvent(event('msg_2'))).toBe('added');
    expect(outboxState(file)).toEqual({ deliveries: 0, cursor: 0 });
    const claimed = await store.claimWebhookDeliveries(T, T + 45, 10);
    // One per endpoint at a time: the oldest, under the id every store gives it.
    expect(claimed.map((c) => c.id)).toEqual([webhookDeliveryId('msg_1', 'wh_a')]);
    expect(outboxState(file)).toEqual({ deliveries: 2, cursor: 2 });
  });

  it('fans a backlog out in slices of CLAIM_FANOUT_SLICE events before a claim, each once, in event order', async () => {
    const backlog = CLAIM_FANOUT_SLICE * 50 + 1;
    for (let i = 1; i <= backlog; i += 1) await store.addWebhookEvent(event(`msg_${i}`));
    let turns = 0;
    const counting = setInterval(() => {
      turns += 1;
    }, 0);
    const claimed = await store.claimWebhookDeliveries(T, T + 45, 10);
    clearInterval(counting);
    expect(claimed.map((c) => c.id)).toEqual([webhookDeliveryId('msg_1', 'wh_a')]);
    expect(outboxState(file)).toEqual({ deliveries: backlog, cursor: backlog });
    // The event loop ran between the slices (a timer fired), rather than waiting for the whole backlog.
    expect(turns).toBeGreaterThan(0);
  });

  it('fans out before a list, a retry, a purge and a new endpoint, and never twice', async () => {
    await store.addWebhookEvent(event('msg_1'));
    expect((await store.listWebhookDeliveries('wh_a', 10)).map((d) => d.eventId)).toEqual(['msg_1']);
    await store.addWebhookEvent(event('msg_2'));
    const retried = await store.retryWebhookDelivery('wh_a', webhookDeliveryId('msg_2', 'wh_a'), T + 1);
    expect(retried?.eventId).toBe('msg_2');
    await store.addWebhookEvent(event('msg_3'));
    // A pending delivery keeps its event: the purge sees msg_3's before deleting.
    expect(await store.purgeWebhookEvents(T + 100)).toBe(0);
    await store.addWebhookEvent(event('msg_4'));
    await store.addWebhookEndpoint(endpoint('wh_b'));
    expect(await store.listWebhookDeliveries('wh_b', 10)).toEqual([]);
    expect((await store.listWebhookDeliveries('wh_a', 10)).map((d) => d.eventId)).toEqual([
      'msg_4',
      'msg_3',
      'msg_2',
      'msg_1',
    ]);
    expect(outboxState(file)).toEqual({ deliveries: 4, cursor: 4 });
  });
});
