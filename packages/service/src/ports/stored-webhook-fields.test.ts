import { describe, expect, it } from 'vitest';
import { storedColumn } from './stored-column.js';

describe('webhook values as stored (docs/protocol.md#webhooks)', () => {
  it('reads a known event type and a known status, and refuses any other value by its place', () => {
    expect(storedColumn.eventType('webhook_events.type of 7', 'domain.bound')).toBe('domain.bound');
    expect(() => storedColumn.eventType('webhook_events.type of 7', 'key.deleted')).toThrow(
      'webhook_events.type of 7: expected one of key.issued, key.regenerated, key.transferred, key.revoked, domain.bound, verdict.refused, got "key.deleted"',
    );
    expect(storedColumn.deliveryStatus('dlv_x', 'failed')).toBe('failed');
    expect(() => storedColumn.deliveryStatus('dlv_x', 'lost')).toThrow(
      'webhook_deliveries.status of dlv_x: got "lost"',
    );
  });
});
