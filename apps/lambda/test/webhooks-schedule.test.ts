import { isRecord } from '@licence/http-vector-runner';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhooksHandler } from '../src/create-webhooks-handler.js';
import type { WebhooksHandler } from '../src/create-webhooks-handler.js';
import { createJsonLogger } from '../src/json-logger.js';
import type { Environment } from '@licence/service';
import { lambdaContext, scheduledEvent } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import type { ReceivedWebhook, WebhookReceiver } from './webhook-receiver.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * docs/protocol.md#webhooks on AWS Lambda, as deployed: the API function (its handler, configured
 * from the environment) records the events in PostgreSQL with the changes that cause them; the
 * scheduled `webhooks` function (another handler, another container, on the same database) drains
 * them to a real receiver on loopback, which verifies every request with the `standardwebhooks`
 * library. Both run on the test clock, which starts at the real time (the library refuses a
 * timestamp more than 5 minutes off).
 */

const postgres = await throwawayPostgres('lambda webhooks');

const RULE = 'licence-webhooks';
/** The template's Timeout: a run has a minute. */
const MINUTE = 60_000;

interface Deployment {
  readonly api: LambdaHarness;
  readonly receiver: WebhookReceiver;
  /** The webhooks function's log lines, all of its containers. */
  readonly lines: string[];
  /** A container of the webhooks function (each call, another one). */
  webhooksContainer(env?: Environment): WebhooksHandler;
  /** POST /admin/webhooks to `path` on the receiver: the endpoint's id and secret. */
  addEndpoint(path: string, events: readonly string[]): Promise<{ readonly id: string; readonly secret: string }>;
  /** POST /admin/keys: the key's answer (its `cle` is never printed). */
  issueKey(): Promise<Record<string, unknown>>;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function deploy(): Promise<Deployment> {
  const databaseUrl = await postgres.cluster().createDatabase();
  const receiver = await startWebhookReceiver();
  open.push(receiver);
  // The API function lets POST /admin/webhooks take an http URL on loopback.
  const api = lambdaHarness({ databaseUrl, env: { LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' } });
  open.push(api);
  const lines: string[] = [];
  await api.admin('POST', '/admin/products', { id: 'mon-theme', author: 'atelier', name: 'Mon theme' });
  return {
    api,
    receiver,
    lines,
    webhooksContainer: (env = { LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' }) => {
      // Only what the template gives LicenceWebhooksFunction: no signing key, no admin token.
      const handler = createWebhooksHandler({
        env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'debug', ...env },
        logger: createJsonLogger({ level: 'debug', write: (line) => lines.push(line) }),
        now: api.clock.now,
      });
      open.push(handler);
      return handler;
    },
    addEndpoint: async (path, events) => {
      const created = await api.admin('POST', '/admin/webhooks', { url: `${receiver.url}${path}`, events });
      if (typeof created.id !== 'string' || typeof created.secret !== 'string') throw new Error('no id or secret');
      return { id: created.id, secret: created.secret };
    },
    issueKey: () => api.admin('POST', '/admin/keys', { produit: 'mon-theme', kind: 'buyer', sites: 2 }),
  };
}

/** The body, once the standardwebhooks library has verified it with the endpoint's secret. */
function verified(request: ReceivedWebhook | undefined, secret: string): Record<string, unknown> {
  if (request === undefined) throw new Error('no request received');
  const payload = new Webhook(secret).verify(request.body, request.headers);
  if (!isRecord(payload)) throw new Error('the body is not a JSON object');
  return payload;
}

async function deliveries(deployment: Deployment, endpointId: string): Promise<Record<string, unknown>[]> {
  const log = await deployment.api.admin('GET', `/admin/webhooks/${endpointId}/deliveries`);
  return Array.isArray(log.deliveries) ? log.deliveries.filter(isRecord) : [];
}

describe.skipIf(!postgres.available)('the scheduled webhooks function (docs/protocol.md#webhooks)', () => {
  it('delivers key.issued, signed as Standard Webhooks specifies; the next run sends nothing again', async () => {
    const deployment = await deploy();
    const endpoint = await deployment.addEndpoint('/shop', ['key.issued']);
    const issued = await deployment.issueKey();
    // The API function itself sends nothing: the event waits in the outbox.
    expect(deployment.receiver.received).toEqual([]);

    const webhooks = deployment.webhooksContainer();
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 1 });
    const [request] = deployment.receiver.received;
    expect(deployment.receiver.received).toHaveLength(1);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/shop');
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.headers['webhook-id']).toMatch(/^msg_/);
    const payload = verified(request, endpoint.secret);
    expect(payload).toEqual({
      type: 'key.issued',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      data: { hint: issued.hint, produit: 'mon-theme', kind: 'buyer', sites: 2, expire: issued.expire },
    });
    // The event's time (the issue's), to the second.
    expect(Math.abs(Date.parse(String(payload.timestamp)) - deployment.api.clock.now())).toBeLessThan(1000);
    // Another endpoint's secret does not verify it.
    const other = await deployment.addEndpoint('/other', ['key.revoked']);
    expect(() => verified(request, other.secret)).toThrow();

    expect(await deliveries(deployment, endpoint.id)).toEqual([
      expect.objectContaining({
        type: 'key.issued',
        status: 'delivered',
        attempts: [expect.objectContaining({ status: 200, error: null })],
      }),
    ]);
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 0 });
    expect(deployment.receiver.received).toHaveLength(1);

    // One info line for the run that sent, a debug one for the quiet run; no key, token or secret.
    const runs = deployment.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(runs.filter((entry) => entry.msg === 'webhooks').map((entry) => [entry.level, entry.attempts])).toEqual([
      [30, 1],
      [20, 0],
    ]);
    const everyLine = [...deployment.lines, ...deployment.api.lines].join('\n');
    for (const secret of [String(issued.cle), endpoint.secret, deployment.api.adminToken])
      expect(everyLine.includes(secret)).toBe(false);
  });

  it('a receiver that fails is tried again once due (5 s later), with the same webhook-id, until it answers 2xx', async () => {
    const deployment = await deploy();
    const endpoint = await deployment.addEndpoint('/flaky', ['key.issued']);
    await deployment.issueKey();
    const webhooks = deployment.webhooksContainer();
    deployment.receiver.answer(500);
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 1 });
    expect(await deliveries(deployment, endpoint.id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: [expect.objectContaining({ status: 500 })] }),
    ]);
    deployment.receiver.answer(200);
    // Not due yet: the run ends at once rather than trying again.
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 0 });
    // The first retry is due 5 s after the attempt, plus at most a tenth (docs/protocol.md#webhooks).
    deployment.api.clock.advance(6);
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 1 });
    const [first, second] = deployment.receiver.received;
    expect(deployment.receiver.received).toHaveLength(2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(verified(second, endpoint.secret)).toMatchObject({ type: 'key.issued' });
    expect(await deliveries(deployment, endpoint.id)).toEqual([
      expect.objectContaining({
        status: 'delivered',
        attempts: [expect.objectContaining({ status: 500 }), expect.objectContaining({ status: 200, error: null })],
      }),
    ]);
  });

  it('starts no round without time for one, and sends one endpoint its events in order', async () => {
    const deployment = await deploy();
    const endpoint = await deployment.addEndpoint('/ordered', ['key.issued']);
    const hints: unknown[] = [];
    for (let n = 0; n < 3; n += 1) hints.push((await deployment.issueKey()).hint);
    const webhooks = deployment.webhooksContainer();
    // One round (the first always runs) sends one delivery per endpoint; 1 s left is no time for another.
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(1000))).toEqual({ attempts: 1 });
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 2 });
    const received = deployment.receiver.received.map((request) => verified(request, endpoint.secret));
    expect(received.map((payload) => (isRecord(payload.data) ? payload.data.hint : null))).toEqual(hints);
  });

  it('overlapping runs (three containers) send each delivery once, each endpoint in order', async () => {
    const deployment = await deploy();
    const endpoints = [
      await deployment.addEndpoint('/a', ['key.issued']),
      await deployment.addEndpoint('/b', ['key.issued']),
    ];
    // Three warm containers (their runtime opened by a first, empty run), so the runs below overlap.
    const containers = [1, 2, 3].map(() => deployment.webhooksContainer());
    for (const webhooks of containers)
      expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 0 });
    const hints: unknown[] = [];
    for (let n = 0; n < 12; n += 1) hints.push((await deployment.issueKey()).hint);
    const results = await Promise.all(
      containers.map((webhooks, n) => webhooks(scheduledEvent(RULE), lambdaContext(MINUTE, `run-${n}`))),
    );
    expect(results.reduce((sum, result) => sum + result.attempts, 0)).toBe(24);
    const received = deployment.receiver.received;
    expect(received).toHaveLength(24);
    for (const [path, endpoint] of [
      ['/a', endpoints[0]],
      ['/b', endpoints[1]],
    ] as const) {
      const mine = received.filter((request) => request.path === path);
      const ids = mine.map((request) => request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(12);
      const payloads = mine.map((request) => verified(request, endpoint?.secret ?? ''));
      expect(payloads.map((payload) => (isRecord(payload.data) ? payload.data.hint : null))).toEqual(hints);
    }
  });

  it("the API function's daily schedule deletes the events past 30 days, with their deliveries", async () => {
    const deployment = await deploy();
    const endpoint = await deployment.addEndpoint('/kept', ['key.issued']);
    await deployment.issueKey();
    // Called without Lambda's context (a local call, as the README shows): its own minute.
    expect(await deployment.webhooksContainer()({})).toEqual({ attempts: 1 });
    deployment.api.clock.advance(29 * 86400);
    await deployment.api.handler(scheduledEvent('licence-purge'));
    expect(await deliveries(deployment, endpoint.id)).toHaveLength(1);
    deployment.api.clock.advance(2 * 86400);
    await deployment.api.handler(scheduledEvent('licence-purge'));
    expect(await deliveries(deployment, endpoint.id)).toEqual([]);
  });

  it('without LICENCE_WEBHOOK_ALLOW_PRIVATE on the webhooks function, a loopback endpoint is refused when sending', async () => {
    const deployment = await deploy();
    const endpoint = await deployment.addEndpoint('/internal', ['key.issued']);
    await deployment.issueKey();
    const webhooks = deployment.webhooksContainer({});
    expect(await webhooks(scheduledEvent(RULE), lambdaContext(MINUTE))).toEqual({ attempts: 1 });
    expect(deployment.receiver.received).toEqual([]);
    const [delivery] = await deliveries(deployment, endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ status: null }] });
    const attempt = Array.isArray(delivery?.attempts) ? delivery.attempts[0] : undefined;
    // The refusal names the range, not the URL (docs/protocol.md#webhooks).
    expect(isRecord(attempt) && typeof attempt.error === 'string' && attempt.error.includes('127.0.0.0/8')).toBe(true);
  });
});
