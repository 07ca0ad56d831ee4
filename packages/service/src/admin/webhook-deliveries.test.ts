import { describe, expect, it } from 'vitest';
import { admin, adminRequest, createHarness, issue, json } from '../../test/harness.js';
import { WEBHOOK_DELIVERIES_SHOWN } from './webhook-deliveries.js';

// GET /admin/webhooks/:id/deliveries and POST .../deliveries/:deliveryId/retry
// (docs/protocol.md#webhooks): the delivery log, newest first with its attempts, and a manual retry.
// Attempts are made here as the deliverer makes them, through the store's claim and finish.

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

async function endpointWithEvents(count: number) {
  const harness = createHarness();
  const { service } = harness;
  const body = { url: 'https://shop.example/hook', events: ['key.issued'] };
  const made = await admin(service, 'POST', '/admin/webhooks', body, 201);
  for (let index = 0; index < count; index += 1) {
    await issue(service, {});
    harness.clock.advance(1000);
  }
  return { ...harness, id: String(made.id) };
}

describe('GET /admin/webhooks/:id/deliveries', () => {
  it('shows each delivery, newest first: id, event, type, created, status, next attempt, attempts', async () => {
    const { service, store, clock, id } = await endpointWithEvents(2);
    const first = Math.floor(clock.nowMs / 1000) - 2;
    const log = await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200);
    expect(log).toEqual({
      webhook: id,
      deliveries: [1, 0].map((offset) => ({
        id: expect.stringMatching(/^dlv_[0-9a-f]{8}[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/),
        event: expect.stringMatching(/^msg_[0-9a-f]{8}[A-Za-z0-9_-]{22}$/),
        type: 'key.issued',
        created: iso(first + offset),
        status: 'pending',
        nextAttempt: iso(first + offset),
        attempts: [],
      })),
    });

    // The deliverer's first attempt of the oldest one fails with a 500: it is due again later.
    const now = Math.floor(clock.nowMs / 1000);
    const [claimed] = await store.claimWebhookDeliveries(now, now + 60, 16);
    if (claimed === undefined) throw new Error('nothing claimed');
    const attempt = { at: now, status: 500, error: null, durationMs: 42 };
    await store.finishWebhookAttempt(claimed.id, attempt, { status: 'pending', nextAttemptAt: now + 5 });
    const after = await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200);
    expect((after.deliveries as unknown[])[1]).toEqual({
      id: claimed.id,
      event: claimed.eventId,
      type: 'key.issued',
      created: iso(first),
      status: 'pending',
      nextAttempt: iso(now + 5),
      attempts: [{ at: iso(now), status: 500, error: null, durationMs: 42 }],
    });
  });

  it(`shows the last ${WEBHOOK_DELIVERIES_SHOWN} only`, async () => {
    const { service, store, id } = await endpointWithEvents(WEBHOOK_DELIVERIES_SHOWN + 3);
    const log = await admin(service, 'GET', `/admin/webhooks/${id}/deliveries`, undefined, 200);
    const shown = log.deliveries as { id: string }[];
    expect(shown).toHaveLength(100);
    const all = await store.listWebhookDeliveries(id, 1000);
    expect(all).toHaveLength(103);
    expect(shown.map((delivery) => delivery.id)).toEqual(all.slice(0, 100).map((delivery) => delivery.id));
  });
});

describe('POST /admin/webhooks/:id/deliveries/:deliveryId/retry', () => {
  it('answers 202 with the delivery, pending and due now, its attempts kept', async () => {
    const { service, store, clock, id, logger } = await endpointWithEvents(1);
    const now = Math.floor(clock.nowMs / 1000);
    const [claimed] = await store.claimWebhookDeliveries(now, now + 60, 16);
    if (claimed === undefined) throw new Error('nothing claimed');
    const attempt = { at: now, status: null, error: 'timeout after 15 s', durationMs: 15_000 };
    await store.finishWebhookAttempt(claimed.id, attempt, { status: 'failed' });
    clock.advance(3_600_000);
    const retried = await service.handle(adminRequest('POST', `/admin/webhooks/${id}/deliveries/${claimed.id}/retry`));
    expect(retried.status).toBe(202);
    expect(json(retried)).toMatchObject({
      id: claimed.id,
      status: 'pending',
      nextAttempt: iso(now + 3600),
      attempts: [{ at: iso(now), status: null, error: 'timeout after 15 s', durationMs: 15_000 }],
    });
    // Claimable again at once, its earlier attempt counted.
    const [again] = await store.claimWebhookDeliveries(now + 3600, now + 3660, 16);
    expect(again).toMatchObject({ id: claimed.id, attempts: 1 });
    expect(logger.lines.find((line) => line.fields.action === 'webhook.retry')?.fields).toEqual({
      action: 'webhook.retry',
      webhook: id,
      delivery: claimed.id,
      type: 'key.issued',
    });
  });

  it("answers 404 for a delivery the endpoint does not have (another endpoint's included)", async () => {
    const { service, id } = await endpointWithEvents(1);
    const other = await admin(
      service,
      'POST',
      '/admin/webhooks',
      { url: 'https://b.example/', events: ['key.issued'] },
      201,
    );
    await issue(service, {});
    const { deliveries } = await admin(
      service,
      'GET',
      `/admin/webhooks/${String(other.id)}/deliveries`,
      undefined,
      200,
    );
    const foreign = (deliveries as { id: string }[])[0]?.id ?? '';
    for (const [delivery, detail] of [
      [foreign, `webhook ${id} has no delivery ${foreign}`],
      ['dlv_nope', `webhook ${id} has no delivery dlv_nope`],
      ['whsec_AAAA', `webhook ${id} has no such delivery`],
    ]) {
      const response = await service.handle(adminRequest('POST', `/admin/webhooks/${id}/deliveries/${delivery}/retry`));
      expect(response.status).toBe(404);
      expect(json(response).detail).toBe(detail);
    }
  });
});
