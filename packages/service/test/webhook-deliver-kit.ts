import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, vi } from 'vitest';
import { createTestClock, createTestLogger, type TestClock, type TestLogger } from './harness.js';
import { createMemoryStore, type MemoryStore } from '@licence/store-memory';
import { nowSeconds } from '../src/http/index.js';
import { randomBytes } from '../src/ports/index.js';
import type { NewWebhookEvent, Store, WebhookDeliveryRecord } from '../src/ports/index.js';
import { createWebhookDeliverer, type WebhookDeliverer, type WebhookDelivererOptions } from '../src/webhooks/index.js';
import { newWebhookEndpointId, newWebhookEventId } from '../src/webhooks/index.js';
import { keyRevokedData, WEBHOOK_EVENT_TYPES, webhookBody } from '../src/webhooks/index.js';
import { newWebhookSecret } from '../src/webhooks/index.js';

/**
 * What the deliverer's tests share (imported by tests only; the package's index never reaches it):
 * a REAL receiver, a node:http server on a loopback port, the real memory store, a clock the tests
 * move, and verification with the `standardwebhooks` npm library, an implementation that is not ours.
 */

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** How the receiver answers a request whose body it has read. */
export type Answer = (request: IncomingMessage, response: ServerResponse) => void;

export const answerWith =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`status ${status}`);
  };

/** Never answers: the attempt can only end by the deliverer's timeout (or the receiver closing). */
export const hang: Answer = () => undefined;

export interface Receiver {
  readonly port: number;
  /** `http://127.0.0.1:<port>/hook?shop=<query>`: a query, which no log line may show. */
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request came. */
  connections: number;
  answer: Answer;
  /** Closes the port (and every connection): attempts then meet "connection refused". */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export const URL_QUERY = 'shop-credential-in-query';

export async function startReceiver(answer: Answer = answerWith(204)): Promise<Receiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: flatHeaders(request),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      receiver.answer(request, response);
    });
  });
  server.on('connection', () => {
    receiver.connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    port,
    url: `http://127.0.0.1:${port}/hook?shop=${URL_QUERY}`,
    received: [],
    connections: 0,
    answer,
    close: async () => {
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    reopen: async () => {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
  };
  return receiver;
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * standardwebhooks' `verify`, as a receiver whose clock reads `nowMs` would run it (it checks the
 * timestamp against Date.now(), and the tests move time by days). Throws when it does not verify.
 */
export function verifyAt(secret: string, request: ReceivedRequest, nowMs: number): unknown {
  const now = vi.spyOn(Date, 'now').mockReturnValue(nowMs);
  try {
    return new Webhook(secret).verify(request.body, { ...request.headers });
  } finally {
    now.mockRestore();
  }
}

export interface Fixture {
  readonly store: MemoryStore;
  readonly clock: TestClock;
  readonly logger: TestLogger;
}

export function createFixture(): Fixture {
  return { store: createMemoryStore(), clock: createTestClock(), logger: createTestLogger() };
}

/** An endpoint of every author, subscribed to every event, stored as is (no URL check: as if the setting changed since). */
export async function addEndpoint(
  { store, clock }: Fixture,
  url: string,
): Promise<{ readonly id: string; readonly secret: string }> {
  const id = newWebhookEndpointId(randomBytes);
  const secret = newWebhookSecret(randomBytes);
  const events = [...WEBHOOK_EVENT_TYPES];
  const created = await store.addWebhookEndpoint({
    id,
    author: null,
    url,
    events,
    createdAt: nowSeconds(clock),
    secret,
  });
  if (created.result !== 'created') throw new Error(`endpoint not created: ${created.result}`);
  return { id, secret };
}

/** A `key.revoked` event of product `theme`, at the clock's time, with its deliveries. */
export async function addEvent({ store, clock }: Fixture): Promise<NewWebhookEvent> {
  const at = nowSeconds(clock);
  const quand = new Date(at * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const data = keyRevokedData({ hint: 'AB12', produit: 'theme', quand, reason: null });
  const event: NewWebhookEvent = {
    id: newWebhookEventId(randomBytes, at),
    type: 'key.revoked',
    produit: 'theme',
    at,
    body: webhookBody('key.revoked', at, data),
    dedupe: null,
  };
  if ((await store.addWebhookEvent(event)) !== 'added') throw new Error('event not added');
  return event;
}

/** The endpoint's only (or newest) delivery. */
export async function deliveryOf(store: Store, endpointId: string): Promise<WebhookDeliveryRecord> {
  const [delivery] = await store.listWebhookDeliveries(endpointId, 100);
  if (delivery === undefined) throw new Error('no delivery');
  return delivery;
}

/** Polls until `condition` holds, with a deadline generous enough for a loaded 2-core CI machine. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, deadlineMs = 20_000) {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A test file's receivers and deliverers, each stopped after every test: `receiver()` starts one on
 * loopback, `deliverer(fixture)` makes one on the fixture's store (LICENCE_WEBHOOK_ALLOW_PRIVATE on,
 * as loopback needs).
 */
export function deliveryParts(): {
  readonly receiver: (...args: Parameters<typeof startReceiver>) => Promise<Receiver>;
  readonly deliverer: (fixture: Fixture, options?: Partial<WebhookDelivererOptions>) => WebhookDeliverer;
} {
  const receivers: Receiver[] = [];
  const deliverers: WebhookDeliverer[] = [];
  afterEach(async () => {
    await Promise.all(deliverers.splice(0).map((one) => one.stop()));
    await Promise.all(receivers.splice(0).map((one) => one.close()));
  });
  return {
    receiver: async (...args) => {
      const started = await startReceiver(...args);
      receivers.push(started);
      return started;
    },
    deliverer: ({ store, clock, logger }, options = {}) => {
      const created = createWebhookDeliverer({ store, clock, logger, allowPrivate: true, ...options });
      deliverers.push(created);
      return created;
    },
  };
}
