import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/index.js';
import {
  addEndpoint,
  addEvent,
  answerWith,
  createFixture,
  deliveryOf,
  hang,
  until,
  verifyAt,
  deliveryParts,
} from '../../test/webhook-deliver-kit.js';
import { WEBHOOK_TIMEOUT_MS } from './deliverer.js';
import { MAX_WEBHOOK_ANSWER_BYTES } from './transport.js';
import { nextAttemptDelay, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS, webhookJitter } from './schedule.js';

const DAY = 86_400;
const { receiver, deliverer } = deliveryParts();

describe('the retry schedule as observed (docs/protocol.md#webhooks)', () => {
  it('tries 11 times over at least 3 days at the table delays plus at most 10% jitter, then fails', async () => {
    const fixture = createFixture();
    const shop = await receiver(answerWith(503));
    const endpoint = await addEndpoint(fixture, shop.url);
    await addEvent(fixture);
    const sender = deliverer(fixture);
    for (;;) {
      expect(await sender.runOnce()).toBe(1);
      const { nextAttemptAt } = await deliveryOf(fixture.store, endpoint.id);
      if (nextAttemptAt === null) break;
      fixture.clock.nowMs = nextAttemptAt * 1000;
    }

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(delivery.attempts.every((attempt) => attempt.status === 503 && attempt.error === 'HTTP 503')).toBe(true);
    const at = delivery.attempts.map((attempt) => attempt.at);
    const waits = at.slice(1).map((time, i) => time - (at[i] ?? 0));
    waits.forEach((wait, i) => {
      const table = WEBHOOK_RETRY_DELAYS[i] ?? 0;
      expect(wait).toBe(nextAttemptDelay(i + 1, { jitter: webhookJitter(delivery.id) }));
      expect(wait).toBeGreaterThanOrEqual(table);
      expect(wait).toBeLessThanOrEqual(table * 1.1);
    });
    expect((at.at(-1) ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(3 * DAY);
    // For the record (issue 15's closing note): the waits this delivery met, jitter included.
    console.info(`observed retry waits (s): ${waits.join(', ')}; span ${(at.at(-1) ?? 0) - (at[0] ?? 0)} s`);
    expect(shop.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    for (const request of shop.received) {
      const stamp = Number(request.headers['webhook-timestamp']);
      expect(verifyAt(endpoint.secret, request, stamp * 1000)).toBeTruthy();
    }
    fixture.clock.advance(30 * DAY * 1000);
    expect(await sender.runOnce()).toBe(0); // failed is final until a manual retry

    expect(await fixture.store.retryWebhookDelivery(endpoint.id, delivery.id, at.at(-1) ?? 0)).not.toBeNull();
    shop.answer = answerWith(200);
    expect(await sender.runOnce()).toBe(1);
    expect((await deliveryOf(fixture.store, endpoint.id)).status).toBe('delivered');
  });
});

describe('start and stop', () => {
  it('drains three events of one endpoint in order, round after round, until stopped', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    const endpoint = await addEndpoint(fixture, shop.url);
    const events = [await addEvent(fixture), await addEvent(fixture), await addEvent(fixture)];
    const sender = deliverer(fixture);
    // A long interval: only "a round that found work starts the next at once" drains all three.
    sender.start(60_000);
    await until(() => shop.received.length === 3, 'three deliveries');
    await sender.stop();
    expect(shop.received.map((request) => request.headers['webhook-id'])).toEqual(events.map((event) => event.id));
    const deliveries = await fixture.store.listWebhookDeliveries(endpoint.id, 100);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('waits in stop() for the attempt in flight, and starts no round after it', async () => {
    const fixture = createFixture();
    const silent = await receiver(hang);
    const endpoint = await addEndpoint(fixture, silent.url);
    await addEvent(fixture);
    const sender = deliverer(fixture, { timeoutMs: 500 });
    sender.start(10);
    await until(() => silent.received.length === 1, 'the attempt to reach the receiver');
    await sender.stop();
    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.attempts.map((attempt) => attempt.error)).toEqual(['timeout after 0.5 s']);
    await addEvent(fixture);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(silent.received).toHaveLength(1);
  });

  it('lets a receiver that never answers hold up no later round: another endpoint gets its event meanwhile', async () => {
    const fixture = createFixture();
    const silent = await receiver(hang);
    const shop = await receiver();
    await addEndpoint(fixture, silent.url);
    const sender = deliverer(fixture, { timeoutMs: 60_000 });
    sender.start(10);
    await addEvent(fixture);
    await until(() => silent.received.length === 1, 'the attempt that hangs');
    // Only now does the second endpoint exist: its event needs a round after the hanging one began.
    await addEndpoint(fixture, shop.url);
    await addEvent(fixture);
    await until(() => shop.received.length === 1, 'the other endpoint, while the first attempt still hangs');
    expect(silent.received).toHaveLength(1);
    await silent.close();
  });

  it('keeps one loop when started twice', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    await addEndpoint(fixture, shop.url);
    const sender = deliverer(fixture);
    sender.start(10);
    sender.start(10);
    await addEvent(fixture);
    await until(() => shop.received.length === 1, 'the delivery');
    await sender.stop();
    expect(shop.received).toHaveLength(1);
  });
});

describe('faults and limits', () => {
  it('answers 0 and logs when the store fails, never rejecting', async () => {
    const fixture = createFixture();
    await fixture.store.close();
    expect(await deliverer(fixture).runOnce()).toBe(0);
    expect(fixture.logger.lines.filter((line) => line.fields.event === 'webhook-claim-failed')).toHaveLength(1);
  });

  it('claims at most `batch` deliveries a round, one per endpoint', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    await addEndpoint(fixture, `${shop.url}&endpoint=1`);
    await addEndpoint(fixture, `${shop.url}&endpoint=2`);
    await addEvent(fixture);
    await addEvent(fixture);
    const sender = deliverer(fixture, { batch: 1 });
    expect([await sender.runOnce(), await sender.runOnce(), await sender.runOnce(), await sender.runOnce()]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(await sender.runOnce()).toBe(0);
  });

  it('reads at most a few KB of an endless answer and ends the attempt without waiting for the deadline', async () => {
    const fixture = createFixture();
    const chunk = 'x'.repeat(1024);
    const shop = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write(chunk), 5);
      response.on('close', () => clearInterval(timer));
    });
    const endpoint = await addEndpoint(fixture, shop.url);
    await addEvent(fixture);
    const timeoutMs = 20_000;
    expect(await deliverer(fixture, { timeoutMs }).runOnce()).toBe(1);
    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts[0]?.durationMs).toBeLessThan(timeoutMs);
    expect(MAX_WEBHOOK_ANSWER_BYTES).toBeLessThanOrEqual(16 * 1024);
  });

  it.each([
    [{ concurrency: 0 }, 'concurrency: expected a positive integer, got 0'],
    [{ concurrency: 1001 }, 'concurrency: expected at most 1000, got 1001'],
    [{ timeoutMs: 0 }, 'timeoutMs: expected a positive integer, got 0'],
    [{ timeoutMs: 1.5 }, 'timeoutMs: expected a positive integer, got 1.5'],
    [{ batch: -1 }, 'batch: expected a positive integer, got -1'],
    [{ allowPrivate: 1 as unknown as boolean }, 'allowPrivate: expected a boolean, got number'],
  ])('refuses the options %j', (options, message) => {
    expect(() => deliverer(createFixture(), options)).toThrow(message);
  });

  it("tells each attempt's timeout, the longest a round's attempts last: the default, or the one given", () => {
    expect(deliverer(createFixture()).timeoutMs).toBe(WEBHOOK_TIMEOUT_MS);
    expect(deliverer(createFixture(), { timeoutMs: 2500 }).timeoutMs).toBe(2500);
  });

  it('refuses a start interval that is not a positive integer', () => {
    expect(() => deliverer(createFixture()).start(0)).toThrow('intervalMs: expected a positive integer, got 0');
  });
});

/** A receiver that holds every answer until the test ends it: how many are in flight is known exactly. */
function holding(): { readonly held: ServerResponse[]; readonly answer: (response: ServerResponse) => void } {
  const held: ServerResponse[] = [];
  return { held, answer: (response) => void held.push(response) };
}

/** The fixture's store, counting its claims (the real memory store underneath). */
function countingClaims<S extends Store>(store: S): { readonly store: S; readonly claims: () => number } {
  let claims = 0;
  const counted = Object.create(store) as S;
  Object.defineProperty(counted, 'claimWebhookDeliveries', {
    value: (...args: Parameters<Store['claimWebhookDeliveries']>) => {
      claims += 1;
      return store.claimWebhookDeliveries(...args);
    },
  });
  return { store: counted, claims: () => claims };
}

describe('the bound on attempts in flight (docs/protocol.md#delivery, LICENCE_WEBHOOK_CONCURRENCY)', () => {
  it('never holds more than `concurrency` attempts, and starts the next ones as slots free', async () => {
    const fixture = createFixture();
    const slow = holding();
    const shop = await receiver((_request, response) => slow.answer(response));
    for (let i = 0; i < 12; i += 1) await addEndpoint(fixture, `${shop.url}&endpoint=${i}`);
    await addEvent(fixture);
    const sender = deliverer(fixture, { concurrency: 5, timeoutMs: 60_000 });
    sender.start(10);
    await until(() => slow.held.length === 5, 'five attempts in flight');
    // Long enough for dozens of rounds at a 10 ms interval: none may start a sixth attempt.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([shop.received.length, shop.connections]).toEqual([5, 5]);
    for (const response of slow.held.splice(0, 2)) response.writeHead(204).end();
    await until(() => slow.held.length === 5, 'two more attempts, in the two freed slots');
    expect(shop.received).toHaveLength(7);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shop.received).toHaveLength(7);
    while (shop.received.length < 12 || slow.held.length > 0) {
      for (const response of slow.held.splice(0)) response.writeHead(204).end();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await sender.stop();
    expect(shop.connections).toBe(12);
  });

  it('makes no claim at all while every slot is busy (no busy loop), and claims again once one frees', async () => {
    const fixture = createFixture();
    const counted = countingClaims(fixture.store);
    const slow = holding();
    const shop = await receiver((_request, response) => slow.answer(response));
    for (let i = 0; i < 3; i += 1) await addEndpoint(fixture, `${shop.url}&endpoint=${i}`);
    await addEvent(fixture);
    const sender = deliverer({ ...fixture, store: counted.store }, { concurrency: 2, timeoutMs: 60_000 });
    sender.start(5);
    await until(() => slow.held.length === 2, 'both slots busy');
    const claimsWhenFull = counted.claims();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 300 ms at a 5 ms interval would be about 60 rounds; a full deliverer makes none.
    expect(counted.claims()).toBe(claimsWhenFull);
    slow.held.shift()?.writeHead(204).end();
    await until(() => shop.received.length === 3, 'the third endpoint, in the freed slot');
    expect(counted.claims()).toBeGreaterThan(claimsWhenFull);
    for (const response of slow.held.splice(0)) response.writeHead(204).end();
  });

  it('bounds runOnce too, and two rounds claiming at once together', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    for (let i = 0; i < 5; i += 1) await addEndpoint(fixture, `${shop.url}&endpoint=${i}`);
    await addEvent(fixture);
    const sender = deliverer(fixture, { concurrency: 3 });
    // The first takes the three slots before it claims; the second finds none free and claims nothing.
    expect(await Promise.all([sender.runOnce(), sender.runOnce()])).toEqual([3, 0]);
    expect(await sender.runOnce()).toBe(2);
    expect(await sender.runOnce()).toBe(0);
    expect(shop.received).toHaveLength(5);
  });
});
