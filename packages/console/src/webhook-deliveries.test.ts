import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryView } from './api-types.js';
import { formatDuration, isSuccess, replaceDelivery } from './webhook-deliveries.js';

const delivery = (id: string, status: WebhookDeliveryView['status']): WebhookDeliveryView => ({
  id,
  event: `msg_${id}`,
  type: 'key.issued',
  created: '2026-03-01T10:00:00Z',
  status,
  nextAttempt: null,
  attempts: [],
});

describe('formatDuration', () => {
  it('milliseconds under a second, seconds to a tenth above, in each language', () => {
    expect(formatDuration(0, 'en')).toBe('0\u00a0ms');
    expect(formatDuration(999, 'fr')).toBe('999\u00a0ms');
    expect(formatDuration(1500, 'en')).toBe('1.5\u00a0s');
    expect(formatDuration(1500, 'fr')).toBe('1,5\u00a0s');
    expect(formatDuration(15_000, 'en')).toBe('15\u00a0s');
  });
});

describe('replaceDelivery', () => {
  it('swaps the delivery of the same id and keeps the order and the others', () => {
    const list = [delivery('a', 'failed'), delivery('b', 'failed')];
    const retried = { ...delivery('b', 'pending'), nextAttempt: '2026-03-01T11:00:00Z' };
    expect(replaceDelivery(list, retried)).toEqual([list[0], retried]);
    expect(replaceDelivery(list, delivery('c', 'pending'))).toEqual(list);
  });
});

describe('isSuccess', () => {
  it('2xx only', () => {
    expect([200, 204, 299].map(isSuccess)).toEqual([true, true, true]);
    expect([null, 199, 301, 500].map(isSuccess)).toEqual([false, false, false, false]);
  });
});
