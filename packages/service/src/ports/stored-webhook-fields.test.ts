import { describe, expect, it } from 'vitest';
import { storedDeliveryStatus, storedEventType } from './stored-webhook-fields.js';

describe('webhook values as stored (docs/protocol.md#webhooks)', () => {
  it('reads a known event type and a known status, and refuses any other value by its place', () => {
    expect(storedEventType('webhook_events.type of 7', 'domain.bound')).toBe('domain.bound');
    expect(() => storedEventType('webhook_events.type of 7', 'key.deleted')).toThrow(
      'webhook_events.type of 7: expected one of key.issued, key.regenerated, key.transferred, key.revoked, domain.bound, verdict.refused, got "key.deleted"',
    );
    expect(storedDeliveryStatus('dlv_x', 'failed')).toBe('failed');
    expect(() => storedDeliveryStatus('dlv_x', 'lost')).toThrow('webhook_deliveries.status of dlv_x: got "lost"');
  });
});
