import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase64 } from '@licence/core';
import { freePort } from '@licence/pg-cluster';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import type { ServeProcess } from './cli-process.js';
import { spawnServe } from './cli-process.js';
import { stopAll } from './serve-processes.js';
import type { AdminTarget } from './webhook-e2e.js';
import { addEndpoint, adminExpect, countById, deliveredBy, deliveriesOf, issueKey, waitUntil } from './webhook-e2e.js';
import { createWebhookReceiver } from './webhook-receiver.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/**
 * One deliverer per process, several processes on one database (docs/protocol.md#webhooks): two
 * `licence serve` processes on one PostgreSQL database, one endpoint, a few hundred keys issued
 * through both in turn. Each process's deliverer claims what is due; the store's claim gives each
 * delivery to one of them at a time, so the receiver (verifying each request with the
 * `standardwebhooks` library) counts every event exactly once, and gets them all.
 */

const postgres = await throwawayPostgres('koa-server webhooks, two processes on PostgreSQL');

const root = mkdtempSync(join(tmpdir(), 'licence-webhooks-pg-'));
const ADMIN_TOKEN = randomBytes(32).toString('base64url');
const KEYS = 300;
/** Keys issued at once (half through each process). */
const BATCH = 10;
let shop: WebhookReceiver | undefined;

afterAll(async () => {
  await shop?.close();
  rmSync(root, { recursive: true, force: true });
});

/** KEYS buyer keys, key i through process i % 2, BATCH at a time; the keys, in issue order. */
async function issueThroughBoth(targets: readonly AdminTarget[]): Promise<string[]> {
  const cles: string[] = [];
  for (let start = 0; start < KEYS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, KEYS - start) }, (_, offset) => {
      const target = targets[(start + offset) % targets.length];
      if (target === undefined) throw new Error('no server');
      return issueKey(target, 'theme');
    });
    for (const { cle } of await Promise.all(batch)) cles.push(cle);
  }
  return cles;
}

describe.skipIf(!postgres.available)('two `licence serve` processes on one PostgreSQL database', () => {
  it(`${KEYS} keys issued through both in turn: the receiver counts each key.issued event exactly once, and all arrive`, async () => {
    const databaseUrl = await postgres.cluster().createDatabase();
    const cwd = mkdtempSync(join(root, 'pg-'));
    const env = {
      DATABASE_URL: databaseUrl,
      LICENCE_ADMIN_TOKEN: ADMIN_TOKEN,
      LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
      // One configured signing key for both, as behind a load balancer (README "On PostgreSQL").
      LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(7)),
    };
    const servers: ServeProcess[] = await Promise.all([spawnServe({ cwd, env }), spawnServe({ cwd, env })]);
    const targets = servers.map((serve) => ({ url: serve.url, adminToken: ADMIN_TOKEN }));
    const [first, second] = targets;
    if (first === undefined || second === undefined) throw new Error('two servers expected');
    let cles: string[] = [];
    let secret = '';
    try {
      shop = createWebhookReceiver(await freePort());
      await shop.listen();
      const receiver = shop;
      await adminExpect(first, 201, 'POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
      // Created through the second process: the endpoint is the database's, not a process's.
      const endpoint = await addEndpoint(second, receiver.url, ['key.issued']);
      secret = endpoint.secret;
      receiver.trust(endpoint.secret);
      cles = await issueThroughBoth(targets);

      await waitUntil(
        `${KEYS} distinct events at the receiver`,
        () => countById(receiver.received.map((delivery) => delivery.id)).size >= KEYS,
        150_000,
      );
      // The newest 100 (what the route shows) are marked delivered by whichever process sent them.
      await waitUntil('the newest deliveries marked delivered', async () =>
        (await deliveriesOf(first, endpoint.id)).every((delivery) => delivery.status === 'delivered'),
      );
      // Two more deliverer rounds (1 s each) for a second send to show up, if there were one.
      await new Promise((resolve) => setTimeout(resolve, 2_500));

      const counts = countById(receiver.received.map((delivery) => delivery.id));
      const requests = receiver.received.length;
      const most = Math.max(...counts.values());
      const split = servers.map((serve) => deliveredBy(serve.logs));
      const summary = `${KEYS} keys issued through 2 processes: ${requests} requests received, ${counts.size} distinct event ids, at most ${most} per id, ${receiver.rejected.length} rejected; delivered by process 1: ${split[0]}, process 2: ${split[1]}`;
      console.info(`webhooks on PostgreSQL: ${summary}`);
      expect(receiver.rejected, summary).toEqual([]);
      expect(counts.size, summary).toBe(KEYS);
      expect(requests, summary).toBe(KEYS);
      expect(most, summary).toBe(1);
      // Each delivery was made (and logged) by exactly one of the two processes.
      expect((split[0] ?? 0) + (split[1] ?? 0), summary).toBe(KEYS);
      expect(receiver.received.every((delivery) => delivery.type === 'key.issued')).toBe(true);
      const spellings = cles.flatMap(keySpellings);
      expect(receiver.received.some((delivery) => spellings.some((key) => delivery.body.includes(key)))).toBe(false);
      const deliveries = await deliveriesOf(second, endpoint.id);
      expect(deliveries).toHaveLength(100);
      expect(deliveries.every((delivery) => delivery.attempts.length === 1)).toBe(true);
    } finally {
      expect(await stopAll(servers)).toEqual([0, 0]);
    }
    const secrets = [...cles.flatMap(keySpellings), secret, ADMIN_TOKEN].filter((text) => text !== '');
    expect(
      linesHolding(
        servers.flatMap((serve) => serve.logs),
        secrets,
      ).length,
    ).toBe(0);
  }, 240_000);
});
