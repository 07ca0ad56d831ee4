import { describe, expect, it } from 'vitest';
import { newWebhookEndpointId, newWebhookEventId, webhookDeliveryId } from './ids.js';

const counting = (start: number) => (length: number) => Uint8Array.from({ length }, (_, index) => start + index);
const T = 1_795_342_440;

describe('webhook ids', () => {
  it('makes endpoint ids from 16 random bytes, in base64url after their prefix', () => {
    expect(newWebhookEndpointId(counting(0))).toBe(`wh_${Buffer.from(counting(0)(16)).toString('base64url')}`);
  });

  it('starts an event id with its time in 8 hex digits and its count in that second, then 12 random bytes', () => {
    const first = newWebhookEventId(counting(1), T);
    expect(first).toMatch(/^msg_[0-9a-f]{14}[A-Za-z0-9_-]{16}$/);
    expect(first).toBe(`msg_${T.toString(16)}000000${Buffer.from(counting(1)(12)).toString('base64url')}`);
    // The same second counts on, so ids of one process sort in the order they were made, whatever
    // their random part; the next second starts again at 0 and still sorts after.
    const second = newWebhookEventId(counting(0), T);
    const third = newWebhookEventId(counting(250), T);
    expect(second.slice(12, 18)).toBe('000001');
    expect(third.slice(12, 18)).toBe('000002');
    const later = newWebhookEventId(counting(0), T + 1);
    expect(later.slice(12, 18)).toBe('000000');
    expect([later, third, first, second].sort()).toEqual([first, second, third, later]);
    expect(newWebhookEventId(counting(0), 5)).toMatch(/^msg_00000005000000/);
  });

  it('derives a delivery id from its event and endpoint: the same every time, distinct per pair, in event order', () => {
    const event = newWebhookEventId(counting(3), T);
    const id = webhookDeliveryId(event, 'wh_b');
    expect(id).toBe(`dlv_${event.slice(4)}_${id.slice(-8)}`);
    expect(id).toMatch(/^dlv_[0-9a-f]{14}[A-Za-z0-9_-]{16}_[A-Za-z0-9_-]{8}$/);
    expect(webhookDeliveryId(event, 'wh_b')).toBe(id);
    expect(webhookDeliveryId(event, 'wh_c')).not.toBe(id);
    expect(webhookDeliveryId(newWebhookEventId(counting(3), T + 1), 'wh_b') > id).toBe(true);
    // Any event id is accepted (the tests' short ones included); the separator keeps pairs apart.
    expect(webhookDeliveryId('msg_ab', 'wh_')).not.toBe(webhookDeliveryId('msg_a', 'bwh_'));
    expect(webhookDeliveryId('e1', 'wh_a')).toMatch(/^dlv_e1_[A-Za-z0-9_-]{8}$/);
  });
});
