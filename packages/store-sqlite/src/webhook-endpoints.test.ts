import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger, Store } from '@licence/service';
import { openSqliteStore } from './open-sqlite-store.js';

const T = 1_790_000_000;
const TABLES = ['webhook_endpoints', 'webhook_secrets', 'webhook_events', 'webhook_deliveries', 'webhook_attempts'];

/** A logger that keeps what it is given, to check what the store never says. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/** The rows of each webhook table, read around the port on a connection of its own. */
function rowCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table: string) => db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n;
    return Object.fromEntries(TABLES.map((table) => [table, count(table) ?? -1]));
  } finally {
    db.close();
  }
}

async function addEndpoint(store: Store, id: string, secret: string): Promise<void> {
  const added = await store.addWebhookEndpoint({
    id,
    author: 'alice',
    url: `https://shop.example/${id}`,
    events: ['key.issued', 'domain.bound'],
    createdAt: T,
    secret,
  });
  expect(added).toEqual({ result: 'created', id });
}

describe('webhook endpoints in SQLite (docs/protocol.md#webhooks)', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-webhook-endpoints-'));
    file = join(dir, 'licence.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('deletes an endpoint with its secrets, deliveries and attempts (ON DELETE CASCADE); the event stays', async () => {
    const store = openSqliteStore({ file });
    await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: T });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: T, staging: [] });
    await addEndpoint(store, 'wh_gone', 'whsec_test_gone');
    await addEndpoint(store, 'wh_kept', 'whsec_test_kept');
    expect(await store.rotateWebhookSecret('wh_gone', 'whsec_test_gone_2', T + 86400)).toBe(true);
    await store.addWebhookEvent({ id: 'msg_1', type: 'key.issued', produit: 'theme', at: T, body: '{}', dedupe: null });
    for (const claimed of await store.claimWebhookDeliveries(T, T + 30, 10)) {
      await store.finishWebhookAttempt(
        claimed.id,
        { at: T, status: 500, error: null, durationMs: 5 },
        {
          status: 'pending',
          nextAttemptAt: T + 5,
        },
      );
    }
    expect(rowCounts(file)).toEqual({
      webhook_endpoints: 2,
      webhook_secrets: 3,
      webhook_events: 1,
      webhook_deliveries: 2,
      webhook_attempts: 2,
    });

    expect(await store.deleteWebhookEndpoint('wh_gone')).toBe(true);
    expect(rowCounts(file)).toEqual({
      webhook_endpoints: 1,
      webhook_secrets: 1,
      webhook_events: 1,
      webhook_deliveries: 1,
      webhook_attempts: 1,
    });
    expect((await store.listWebhookDeliveries('wh_kept', 10)).map((d) => d.attempts.length)).toEqual([1]);
    await store.close();
  });

  it('logs no secret and no event body, whatever it does', async () => {
    const logger = recordingLogger();
    const store = openSqliteStore({ file, logger });
    await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: T });
    await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: T, staging: [] });
    await addEndpoint(store, 'wh_1', 'whsec_SECRET_ONE');
    await store.rotateWebhookSecret('wh_1', 'whsec_SECRET_TWO', T + 86400);
    const body = '{"data":{"cle":"BODY-KEY-TEXT"}}';
    await store.addWebhookEvent({ id: 'msg_1', type: 'key.issued', produit: 'theme', at: T, body, dedupe: null });
    await store.claimWebhookDeliveries(T, T + 30, 10);
    await store.purgeWebhookEvents(T + 100);
    await store.close();
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.filter((line) => /SECRET_|BODY-KEY/.test(line))).toEqual([]);
  });
});
