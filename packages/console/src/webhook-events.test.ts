import { WEBHOOK_EVENT_TYPES } from '@licence/service';
import { describe, expect, it } from 'vitest';
import type { WebhookEventType } from './api-types.js';
import { translator } from './i18n/translate.js';
import { orderedEvents, WEBHOOK_EVENTS } from './webhook-events.js';

describe('WEBHOOK_EVENTS', () => {
  it('is the service’s list, in its order', () => {
    expect([...WEBHOOK_EVENTS]).toEqual([...WEBHOOK_EVENT_TYPES]);
    // The type check's half: an event the service adds and the console lacks fails `tsc`.
    const missing: [Exclude<WebhookEventType, (typeof WEBHOOK_EVENTS)[number]>] extends [never] ? 'none' : 'some' =
      'none';
    expect(missing).toBe('none');
  });

  it('every event has its explanation in both languages', () => {
    for (const lang of ['en', 'fr'] as const) {
      const t = translator(lang);
      const texts = WEBHOOK_EVENTS.map((event) => t(`event.${event}`));
      expect(new Set(texts).size).toBe(WEBHOOK_EVENTS.length);
    }
  });
});

describe('orderedEvents', () => {
  it('keeps the service’s order and drops repeats', () => {
    expect(orderedEvents(['verdict.refused', 'key.issued', 'verdict.refused'])).toEqual([
      'key.issued',
      'verdict.refused',
    ]);
    expect(orderedEvents([])).toEqual([]);
  });
});
