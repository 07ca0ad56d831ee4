import { describe, expect, it } from 'vitest';
import { currentOf, navItems } from './nav-items.js';

const author = { role: 'author', author: { id: 'alice', name: 'Alice', created: '2026-01-01T00:00:00Z' } } as const;

describe('navItems', () => {
  it('the operator gets the authors and the request log; an author its own tokens instead; both the webhooks', () => {
    expect(navItems({ role: 'operator' }).map((i) => i.href)).toEqual([
      '#/products',
      '#/keys',
      '#/webhooks',
      '#/authors',
      '#/purge',
    ]);
    expect(navItems(author).map((i) => i.href)).toEqual(['#/products', '#/keys', '#/webhooks', '#/tokens']);
  });

  it('aria-current is page on the item’s own page, true below it, absent elsewhere', () => {
    const [products, keys] = navItems(author);
    if (products === undefined || keys === undefined) throw new Error('two items expected');
    expect(currentOf(products, { page: 'products' })).toBe('page');
    expect(currentOf(products, { page: 'product', id: 'p' })).toBe('true');
    expect(currentOf(keys, { page: 'products' })).toBeUndefined();
    const webhooks = navItems(author)[2];
    expect(webhooks === undefined ? null : currentOf(webhooks, { page: 'webhook', id: 'wh_a' })).toBe('true');
  });
});
