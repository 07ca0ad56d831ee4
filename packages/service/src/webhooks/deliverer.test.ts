import type { LookupAddress } from 'node:dns';
import { WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { nowSeconds } from '../http/index.js';
import { randomBytes } from '../ports/index.js';
import type { NewWebhookEvent } from '../ports/index.js';
import {
  addEndpoint,
  addEvent,
  answerWith,
  createFixture,
  deliveryOf,
  hang,
  until,
  URL_QUERY,
  verifyAt,
  deliveryParts,
} from '../../test/webhook-deliver-kit.js';
import { WEBHOOK_TIMEOUT_MS } from './deliverer.js';
import type { ResolveAll } from './destination.js';
import { newWebhookSecret } from './secret.js';
import { WEBHOOK_USER_AGENT } from './transport.js';

const { receiver, deliverer } = deliveryParts();

/** A resolver that answers `address` for every name, and remembers the names it was asked. */
function resolveTo(address: string, asked: string[]): ResolveAll {
  return (hostname, _options, callback) => {
    asked.push(hostname);
    const family = address.includes(':') ? 6 : 4;
    const answer: LookupAddress[] = [{ address, family }];
    setImmediate(() => callback(null, answer));
  };
}

describe('createWebhookDeliverer (docs/protocol.md#webhooks)', () => {
  it('delivers the event signed as Standard Webhooks specifies, at the attempt time', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    const endpoint = await addEndpoint(fixture, shop.url);
    const event = await addEvent(fixture);
    fixture.clock.advance(90_000); // the attempt comes later than the event: its own timestamp
    expect(await deliverer(fixture).runOnce()).toBe(1);

    expect(shop.received).toHaveLength(1);
    const [request] = shop.received;
    if (request === undefined) throw new Error('nothing received');
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/hook?shop=${URL_QUERY}`);
    expect(request.body).toBe(event.body);
    expect(request.headers['webhook-id']).toBe(event.id);
    expect(request.headers['webhook-timestamp']).toBe(String(nowSeconds(fixture.clock)));
    expect(request.headers['webhook-timestamp']).not.toBe(String(event.at));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(verifyAt(endpoint.secret, request, fixture.clock.now())).toEqual(JSON.parse(event.body));
    const other = newWebhookSecret(randomBytes);
    expect(() => verifyAt(other, request, fixture.clock.now())).toThrow(WebhookVerificationError);

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts).toEqual([
      { at: nowSeconds(fixture.clock), status: 204, error: null, durationMs: expect.any(Number) },
    ]);
    expect(await deliverer(fixture).runOnce()).toBe(0);
  });

  it('logs one line per attempt with ids, status and duration, never the secret, body or URL query', async () => {
    const fixture = createFixture();
    const shop = await receiver(answerWith(500));
    const endpoint = await addEndpoint(fixture, shop.url);
    const event = await addEvent(fixture);
    await deliverer(fixture).runOnce();

    const lines = fixture.logger.lines.filter((line) => line.fields.event === 'webhook-attempt');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('warn');
    expect(lines[0]?.fields).toMatchObject({
      endpoint: endpoint.id,
      delivery: (await deliveryOf(fixture.store, endpoint.id)).id,
      attempt: 1,
      status: 500,
      error: 'HTTP 500',
      durationMs: expect.any(Number),
      outcome: 'pending',
    });
    const text = fixture.logger.text();
    expect(text.includes(endpoint.secret)).toBe(false);
    expect(text.includes(endpoint.secret.slice('whsec_'.length))).toBe(false);
    expect(text.includes(URL_QUERY)).toBe(false);
    expect(text.includes(event.body)).toBe(false);
    expect(text.includes('AB12')).toBe(false);
  });

  it('retries after 500, a timeout and a refused connection, and delivers on the 4th attempt', async () => {
    const fixture = createFixture();
    const shop = await receiver(answerWith(500));
    const endpoint = await addEndpoint(fixture, shop.url);
    const event = await addEvent(fixture);
    const sender = deliverer(fixture, { timeoutMs: 300 });
    const nextAttempt = async () => {
      const { nextAttemptAt } = await deliveryOf(fixture.store, endpoint.id);
      if (nextAttemptAt === null) throw new Error('not pending');
      expect(await sender.runOnce()).toBe(0); // not due yet
      fixture.clock.nowMs = nextAttemptAt * 1000;
      expect(await sender.runOnce()).toBe(1);
    };

    expect(await sender.runOnce()).toBe(1); // 500
    shop.answer = hang;
    await nextAttempt(); // no answer within 300 ms
    await shop.close();
    await nextAttempt(); // nobody listens
    await shop.reopen();
    shop.answer = answerWith(200);
    await nextAttempt();

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map(({ status, error }) => ({ status, error }))).toEqual([
      { status: 500, error: 'HTTP 500' },
      { status: null, error: 'timeout after 0.3 s' },
      { status: null, error: 'connection refused' },
      { status: 200, error: null },
    ]);
    // The deadline is what ended the second attempt (the timer may fire a millisecond early).
    expect(delivery.attempts[1]?.durationMs).toBeGreaterThanOrEqual(290);
    // Three requests reached the receiver (the third attempt found no one): same id, own timestamps.
    expect(shop.received).toHaveLength(3);
    const stamps = shop.received.map((request) => request.headers['webhook-timestamp']);
    expect(stamps).toEqual([0, 1, 3].map((i) => String(delivery.attempts[i]?.at)));
    for (const request of shop.received) {
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(request.body).toBe(event.body);
      expect(verifyAt(endpoint.secret, request, Number(request.headers['webhook-timestamp']) * 1000)).toBeTruthy();
    }
  });

  it.each([301, 302, 307, 308])('does not follow a %i redirect', async (status) => {
    const fixture = createFixture();
    const elsewhere = await receiver(answerWith(200));
    const shop = await receiver(answerWith(status, { location: elsewhere.url }));
    const endpoint = await addEndpoint(fixture, shop.url);
    await addEvent(fixture);
    expect(await deliverer(fixture).runOnce()).toBe(1);

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts.map(({ status, error }) => ({ status, error }))).toEqual([
      { status, error: `redirect not followed (${status})` },
    ]);
    expect(shop.received).toHaveLength(1);
    expect(elsewhere.connections).toBe(0);
  });

  it('refuses a loopback IP stored while LICENCE_WEBHOOK_ALLOW_PRIVATE was on, once it is off', async () => {
    const fixture = createFixture();
    const shop = await receiver(answerWith(200));
    const endpoint = await addEndpoint(fixture, shop.url); // http://127.0.0.1:<port>/hook
    await addEvent(fixture);
    expect(await deliverer(fixture, { allowPrivate: false }).runOnce()).toBe(1);

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]?.status).toBeNull();
    expect(delivery.attempts[0]?.error).toBe('private address refused (127.0.0.0/8, loopback (RFC 1122))');
    expect(shop.connections).toBe(0);
  });

  it.each([
    ['127.0.0.1', '127.0.0.0/8'],
    ['169.254.169.254', '169.254.0.0/16'],
    ['::ffff:127.0.0.1', '127.0.0.0/8'],
  ])('refuses at connect a host name that resolves to %s (DNS rebinding)', async (address, cidr) => {
    const fixture = createFixture();
    const shop = await receiver(answerWith(200));
    const endpoint = await addEndpoint(fixture, `https://shop.example:${shop.port}/hook`);
    await addEvent(fixture);
    const asked: string[] = [];
    const sender = deliverer(fixture, { allowPrivate: false, resolve: resolveTo(address, asked) });
    expect(await sender.runOnce()).toBe(1);

    const delivery = await deliveryOf(fixture.store, endpoint.id);
    expect(asked).toContain('shop.example');
    expect(delivery.attempts[0]?.status).toBeNull();
    expect(delivery.attempts[0]?.error).toMatch(
      new RegExp(`^private address refused \\(${cidr.replace(/\./g, '\\.')}, `),
    );
    expect(shop.connections).toBe(0);
  });

  it('signs with both secrets during a rotation, then with the new one only', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    const endpoint = await addEndpoint(fixture, shop.url);
    const newSecret = newWebhookSecret(randomBytes);
    const previousUntil = nowSeconds(fixture.clock) + 86_400;
    expect(await fixture.store.rotateWebhookSecret(endpoint.id, newSecret, previousUntil)).toBe(true);
    await addEvent(fixture);
    const sender = deliverer(fixture);
    await sender.runOnce();

    const [during] = shop.received;
    if (during === undefined) throw new Error('nothing received');
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, newSecret])
      expect(verifyAt(secret, during, fixture.clock.now())).toBeTruthy();

    fixture.clock.nowMs = (previousUntil + 1) * 1000;
    await addEvent(fixture);
    await sender.runOnce();
    const after = shop.received[1];
    if (after === undefined) throw new Error('second event not received');
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifyAt(newSecret, after, fixture.clock.now())).toBeTruthy();
    expect(() => verifyAt(endpoint.secret, after, fixture.clock.now())).toThrow(WebhookVerificationError);
  });

  it('never sends a delivery twice when two deliverers share a store, and keeps each endpoint in order', async () => {
    const fixture = createFixture();
    const shop = await receiver();
    const endpoints = [];
    for (let i = 0; i < 3; i += 1) endpoints.push(await addEndpoint(fixture, `${shop.url}&endpoint=${i}`));
    const events: NewWebhookEvent[] = [];
    for (let i = 0; i < 4; i += 1) events.push(await addEvent(fixture));
    const [one, two] = [deliverer(fixture), deliverer(fixture)];
    let rounds = 0;
    for (;;) {
      const made = await Promise.all([one.runOnce(), two.runOnce()]);
      rounds += 1;
      if (made[0] === 0 && made[1] === 0) break;
      if (rounds > 50) throw new Error('the outbox did not drain');
    }

    expect(shop.received).toHaveLength(12);
    endpoints.forEach((_endpoint, i) => {
      const mine = shop.received.filter((request) => request.path.endsWith(`&endpoint=${i}`));
      // Each event once, in the order the events were written.
      expect(mine.map((request) => request.headers['webhook-id'])).toEqual(events.map((event) => event.id));
    });
    for (const endpoint of endpoints) {
      const deliveries = await fixture.store.listWebhookDeliveries(endpoint.id, 100);
      expect(deliveries.map((delivery) => [delivery.status, delivery.attempts.length])).toEqual(
        events.map(() => ['delivered', 1]),
      );
    }
  });

  it('lets no receiver that never answers delay another endpoint in the same round', async () => {
    const fixture = createFixture();
    const silent = await receiver(hang);
    const shop = await receiver();
    const stuck = await addEndpoint(fixture, silent.url);
    const fine = await addEndpoint(fixture, shop.url);
    await addEvent(fixture);
    let settled = false;
    const round = deliverer(fixture, { timeoutMs: WEBHOOK_TIMEOUT_MS }).runOnce();
    void round.then(() => {
      settled = true;
    });

    await until(async () => (await deliveryOf(fixture.store, fine.id)).status === 'delivered', 'the other delivery');
    expect(settled).toBe(false); // the silent receiver still holds its attempt
    expect(silent.received).toHaveLength(1);
    await silent.close(); // end the hung attempt instead of waiting 15 s
    expect(await round).toBe(2);
    const stuckDelivery = await deliveryOf(fixture.store, stuck.id);
    expect(stuckDelivery.status).toBe('pending');
    expect(stuckDelivery.attempts[0]?.status).toBeNull();
  });
});
