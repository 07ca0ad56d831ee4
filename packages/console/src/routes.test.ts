import { describe, expect, it } from 'vitest';
import { parseRoute, type Route, routeHref } from './routes.js';

describe('parseRoute', () => {
  it('reads each page', () => {
    expect(parseRoute('')).toEqual({ page: 'products' });
    expect(parseRoute('#/')).toEqual({ page: 'products' });
    expect(parseRoute('#/products')).toEqual({ page: 'products' });
    expect(parseRoute('#/products/mon-plugin')).toEqual({ page: 'product', id: 'mon-plugin' });
    expect(parseRoute('#/keys')).toEqual({ page: 'keys' });
    expect(parseRoute('#/authors')).toEqual({ page: 'authors' });
    expect(parseRoute('#/authors/alice')).toEqual({ page: 'author', id: 'alice' });
    expect(parseRoute('#/tokens')).toEqual({ page: 'tokens' });
    expect(parseRoute('#/purge')).toEqual({ page: 'purge' });
    expect(parseRoute('#/webhooks')).toEqual({ page: 'webhooks' });
    expect(parseRoute('#/webhooks/wh_abc')).toEqual({ page: 'webhook', id: 'wh_abc' });
  });

  it('anything else is the missing page: unknown, too deep, an id where none goes, bad escapes', () => {
    for (const hash of [
      '#/nope',
      '#/products/a/b',
      '#/keys/ABCDE-FGHIJ',
      '#/products/%E0%A4%A',
      '#/webhooks/a/deliveries',
      '#main',
    ]) {
      expect(parseRoute(hash)).toEqual({ page: 'missing' });
    }
  });

  it('routeHref and parseRoute agree, ids percent-encoded', () => {
    const routes: Route[] = [
      { page: 'products' },
      { page: 'product', id: 'a b/c' },
      { page: 'keys' },
      { page: 'authors' },
      { page: 'author', id: 'élodie' },
      { page: 'tokens' },
      { page: 'purge' },
      { page: 'webhooks' },
      { page: 'webhook', id: 'wh_a/b' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
    expect(routeHref({ page: 'product', id: 'a b/c' })).toBe('#/products/a%20b%2Fc');
    expect(routeHref({ page: 'webhook', id: 'wh_a/b' })).toBe('#/webhooks/wh_a%2Fb');
  });
});
