import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';

const T = 1_790_000_000;

async function endpointsAndEvents(store: Store, endpoints: number, events: number): Promise<void> {
  await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: T, staging: [] });
  for (let i = 0; i < endpoints; i += 1) {
    await store.addWebhookEndpoint({
      id: `wh_${i}`,
      author: null,
      url: `https://shop.example/${i}`,
      events: ['key.issued'],
      createdAt: T,
      secret: `whsec_test_${i}`,
    });
  }
  for (let i = 0; i < events; i += 1) {
    await store.addWebhookEvent({
      id: `msg_${i}`,
      type: 'key.issued',
      produit: 'theme',
      at: T,
      body: '{}',
      dedupe: null,
    });
  }
}

describe('claimWebhookDeliveries on one file (docs/protocol.md#webhooks)', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-webhook-claim-'));
    file = join(dir, 'licence.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("never hands a claimed endpoint's delivery to another connection while the lease holds, and does after", async () => {
    const a = openSqliteStore({ file });
    await endpointsAndEvents(a, 2, 2);
    const b = openSqliteStore({ file });
    const first = await a.claimWebhookDeliveries(T, T + 60, 1);
    expect(first.map((c) => [c.endpointId, c.eventId])).toEqual([['wh_0', 'msg_0']]);
    // b sees a's lease: the other endpoint only, never a second delivery of the claimed one.
    const second = await b.claimWebhookDeliveries(T, T + 60, 10);
    expect(second.map((c) => [c.endpointId, c.eventId])).toEqual([['wh_1', 'msg_0']]);
    expect(await a.claimWebhookDeliveries(T + 59, T + 120, 10)).toEqual([]);
    // Past the lease (its process died), the same delivery is claimable again, with its count.
    const again = await b.claimWebhookDeliveries(T + 60, T + 120, 10);
    expect(again.map((c) => c.id).sort()).toEqual([first[0]?.id, second[0]?.id].sort());
    expect(again.every((c) => c.attempts === 0)).toBe(true);
    await a.close();
    await b.close();
  });
});
