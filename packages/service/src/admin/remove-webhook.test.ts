import { describe, expect, it } from 'vitest';
import { admin, adminRequest, createHarness, issue, json } from '../../test/harness.js';

// DELETE /admin/webhooks/:id (docs/protocol.md#webhooks): the endpoint goes with its deliveries.

describe('DELETE /admin/webhooks/:id', () => {
  it('answers 204; the endpoint, its deliveries and its claims are gone; a second DELETE is a 404', async () => {
    const { service, store, clock, logger } = createHarness();
    const body = { url: 'https://shop.example/hook', events: ['key.issued'] };
    const made = await admin(service, 'POST', '/admin/webhooks', body, 201);
    const kept = await admin(service, 'POST', '/admin/webhooks', { ...body, url: 'https://other.example/' }, 201);
    await issue(service, {});
    const id = String(made.id);
    const removed = await service.handle(adminRequest('DELETE', `/admin/webhooks/${id}`));
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    expect(await admin(service, 'GET', '/admin/webhooks', undefined, 200)).toEqual({
      webhooks: [expect.objectContaining({ id: kept.id })],
    });
    expect(await store.listWebhookDeliveries(id, 100)).toEqual([]);
    // Nothing more is sent to it: the only delivery left to claim is the other endpoint's.
    const now = Math.floor(clock.nowMs / 1000);
    expect((await store.claimWebhookDeliveries(now, now + 60, 16)).map((claimed) => claimed.endpointId)).toEqual([
      kept.id,
    ]);
    const again = await service.handle(adminRequest('DELETE', `/admin/webhooks/${id}`));
    expect(again.status).toBe(404);
    expect(json(again).detail).toBe(`no webhook ${id}`);
    expect(logger.lines.filter((line) => line.fields.action === 'webhook.remove').map((line) => line.fields)).toEqual([
      { action: 'webhook.remove', webhook: id },
    ]);
  });
});
