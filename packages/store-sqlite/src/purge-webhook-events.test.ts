import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';
import { WEBHOOK_PURGE_CHUNK } from './purge-webhook-events.js';
import { foundInFiles } from '../test/database-files.js';

const OLD = 1_700_000_000;
const CUT = 1_760_000_000;
const RECENT = 1_790_000_000;

/** A formatted key as a `key.regenerated` body carries it; each distinct, none a part of another. */
function newKeyText(i: number): string {
  return `ZQ${String(1000 + i)}-AAAAA-BBBBB-CCCCC-DDDDD`;
}

function regenerated(i: number, at: number): Store.NewWebhookEvent {
  const body = JSON.stringify({
    type: 'key.regenerated',
    data: { hint: 'AB12', cle: newKeyText(i), produit: 'theme' },
  });
  return { id: `msg_${i}`, type: 'key.regenerated', produit: 'theme', at, body, dedupe: null };
}

/** The number of rows of each webhook table, read around the port on a connection of its own. */
function rowCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table: string) => db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n;
    return Object.fromEntries(
      ['webhook_events', 'webhook_deliveries', 'webhook_attempts'].map((table) => [table, count(table) ?? -1]),
    );
  } finally {
    db.close();
  }
}

async function setUp(store: Store): Promise<void> {
  await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: OLD });
  await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: OLD, staging: [] });
  await store.addWebhookEndpoint({
    id: 'wh_1',
    author: 'alice',
    url: 'https://shop.example/hook',
    events: ['key.regenerated'],
    createdAt: OLD,
    secret: 'whsec_test',
  });
}

/** Claims everything due at `now` and records one attempt of each, delivered. */
async function deliverAll(store: Store, now: number): Promise<number> {
  let delivered = 0;
  for (;;) {
    const claimed = await store.claimWebhookDeliveries(now, now + 30, 100);
    if (claimed.length === 0) return delivered;
    for (const delivery of claimed) {
      const attempt = { at: now, status: 204, error: null, durationMs: 3 };
      await store.finishWebhookAttempt(delivery.id, attempt, { status: 'delivered' });
      delivered += 1;
    }
  }
}

describe('purgeWebhookEvents (docs/protocol.md#webhooks, #storage)', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-webhook-purge-'));
    file = join(dir, 'licence.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('deletes more events than one step holds, with their deliveries and attempts, and counts the events', async () => {
    const store = openSqliteStore({ file });
    await setUp(store);
    const total = WEBHOOK_PURGE_CHUNK * 2 + 7;
    for (let i = 0; i < total; i += 1) await store.addWebhookEvent(regenerated(i, OLD + i));
    await store.addWebhookEvent(regenerated(total, RECENT));
    expect(await deliverAll(store, RECENT)).toBe(total + 1);
    expect(rowCounts(file)).toEqual({
      webhook_events: total + 1,
      webhook_deliveries: total + 1,
      webhook_attempts: total + 1,
    });

    expect(await store.purgeWebhookEvents(CUT)).toBe(total);
    expect(rowCounts(file)).toEqual({ webhook_events: 1, webhook_deliveries: 1, webhook_attempts: 1 });
    expect(await store.purgeWebhookEvents(CUT)).toBe(0);
    await store.close();
  });

  it('keeps an old event while one of its deliveries is pending, and purges it once delivered', async () => {
    const store = openSqliteStore({ file });
    await setUp(store);
    await store.addWebhookEvent(regenerated(1, OLD));
    expect(await store.purgeWebhookEvents(CUT)).toBe(0);
    expect(rowCounts(file).webhook_events).toBe(1);
    await deliverAll(store, OLD);
    expect(await store.purgeWebhookEvents(CUT)).toBe(1);
    expect(rowCounts(file)).toEqual({ webhook_events: 0, webhook_deliveries: 0, webhook_attempts: 0 });
    await store.close();
  });

  it('leaves no purged new key (data.cle) in the bytes of licence.db, -wal and -shm, and every kept one', async () => {
    const store = openSqliteStore({ file });
    await setUp(store);
    const old = Array.from({ length: 100 }, (_, i) => i);
    for (const i of old) await store.addWebhookEvent(regenerated(i, OLD + i));
    await store.addWebhookEvent(regenerated(500, RECENT));
    await deliverAll(store, RECENT);
    const oldKeys = old.map(newKeyText);
    expect(foundInFiles(file, oldKeys)).toHaveLength(100);

    expect(await store.purgeWebhookEvents(CUT)).toBe(100);
    expect((await stat(`${file}-wal`)).size).toBe(0);
    expect(foundInFiles(file, oldKeys)).toEqual([]);
    expect(foundInFiles(file, [newKeyText(500)])).toEqual([newKeyText(500)]);
    await store.close();
  });
});
