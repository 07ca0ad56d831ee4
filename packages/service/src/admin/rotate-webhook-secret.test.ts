import { describe, expect, it } from 'vitest';
import { admin, adminRequest, createHarness, issue, json } from '../../test/harness.js';
import { WEBHOOK_ROTATION_SECONDS } from './rotate-webhook-secret.js';
import { parseWebhookSecret } from '../webhooks/index.js';

// POST /admin/webhooks/:id/secret (docs/protocol.md#webhooks): a new secret shown once; the previous
// one keeps signing 24 hours, so the shop can switch at its own pace.

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

describe('POST /admin/webhooks/:id/secret', () => {
  it('answers 200 {id, secret, previousUntil}; both secrets sign for 24 h, then the new one alone', async () => {
    const { service, store, clock, logger } = createHarness();
    const body = { url: 'https://shop.example/hook', events: ['key.issued'] };
    const made = await admin(service, 'POST', '/admin/webhooks', body, 201);
    const id = String(made.id);
    const now = Math.floor(clock.nowMs / 1000);
    const rotated = await admin(service, 'POST', `/admin/webhooks/${id}/secret`, undefined, 200);
    expect(WEBHOOK_ROTATION_SECONDS).toBe(86_400);
    expect(rotated).toEqual({ id, secret: expect.stringMatching(/^whsec_/), previousUntil: iso(now + 86_400) });
    expect(parseWebhookSecret(rotated.secret).length).toBe(32);
    expect(rotated.secret).not.toBe(made.secret);

    // What the deliverer signs with: the new secret first, then the old one, until previousUntil.
    await issue(service, {});
    const [during] = await store.claimWebhookDeliveries(now, now + 1, 16);
    expect(during?.secrets).toEqual([rotated.secret, made.secret]);
    const after = now + WEBHOOK_ROTATION_SECONDS + 1;
    const [later] = await store.claimWebhookDeliveries(after, after + 1, 16);
    expect(later?.secrets).toEqual([rotated.secret]);

    // The log names the endpoint, never a secret.
    expect(logger.lines.find((line) => line.fields.action === 'webhook.rotate')?.fields).toEqual({
      action: 'webhook.rotate',
      webhook: id,
      previousUntil: iso(now + 86_400),
    });
    for (const secret of [made.secret, rotated.secret]) {
      expect(logger.text().includes(String(secret).slice(6))).toBe(false);
    }
  });

  it('answers 404 for an unknown endpoint, naming it only when it looks like an endpoint id', async () => {
    const { service } = createHarness();
    const unknown = await service.handle(adminRequest('POST', '/admin/webhooks/wh_nope/secret'));
    expect(unknown.status).toBe(404);
    expect(json(unknown).detail).toBe('no webhook wh_nope');
    // A secret pasted where the id belongs is not repeated.
    const pasted = await service.handle(
      adminRequest('POST', `/admin/webhooks/${encodeURIComponent('whsec_AAAA+/=')}/secret`),
    );
    expect(pasted.status).toBe(404);
    expect(json(pasted).detail).toBe('no such webhook');
  });
});
