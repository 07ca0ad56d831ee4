import { describe, expect, it } from 'vitest';
import { webhookBody } from './webhook-body.js';

const form = {
  url: ' https://shop.example/hooks ',
  events: new Set(['key.revoked', 'key.issued'] as const),
  author: '',
};

describe('webhookBody', () => {
  it('trims the URL and sends the events in the service’s order', () => {
    expect(webhookBody(form, 'operator')).toEqual({
      ok: true,
      body: { url: 'https://shop.example/hooks', events: ['key.issued', 'key.revoked'] },
    });
  });

  it('the operator sends the author it chose; every author is no author at all', () => {
    expect(webhookBody({ ...form, author: 'alice' }, 'operator')).toMatchObject({ body: { author: 'alice' } });
    const every = webhookBody(form, 'operator');
    expect(every.ok && 'author' in every.body).toBe(false);
  });

  it('an author token never sends an author', () => {
    const own = webhookBody({ ...form, author: 'bob' }, 'author');
    expect(own.ok && 'author' in own.body).toBe(false);
  });

  it('refuses an empty URL, then no event, naming the field', () => {
    expect(webhookBody({ ...form, url: '  ' }, 'operator')).toEqual({ ok: false, field: 'url' });
    expect(webhookBody({ ...form, events: new Set() }, 'author')).toEqual({ ok: false, field: 'events' });
  });
});
