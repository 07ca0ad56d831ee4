import { describe, expect, it } from 'vitest';
import { routeLabel } from './route-label.js';

const KEY = 'GNZ761VG7G9DKMJVN3ZGQSJXJ';

describe('routeLabel (docs/protocol.md#privacy: no path and no key in a log line)', () => {
  it.each([
    ['/api/licence', '/api/licence'],
    ['/api/license', '/api/license'],
    ['/healthz', '/healthz'],
    ['/admin/products', '/admin/products'],
    ['/admin/keys', '/admin/keys'],
    ['/admin/purge', '/admin/purge'],
    [`/admin/keys/${KEY}`, '/admin/keys/:cle'],
    [`/admin/keys/${KEY}/regenerate`, '/admin/keys/:cle/regenerate'],
    [`/admin/keys/${KEY}/transfer`, '/admin/keys/:cle/transfer'],
    [`/admin/keys/${KEY}/revoke`, '/admin/keys/:cle/revoke'],
    [`/admin/keys/${KEY}/explode`, '/admin/*'],
    ['/admin/keys/ABCDE-FGHJK-MNPQR-STVWX-YZ012/revoke', '/admin/keys/:cle/revoke'],
    ['/admin/products/theme/installations', '/admin/products/:id/installations'],
    ['/admin', '/admin/*'],
    ['/admin/me', '/admin/me'],
    ['/admin/authors', '/admin/authors'],
    ['/admin/products/theme/activity', '/admin/products/:id/activity'],
    ['/admin/authors/alice/tokens', '/admin/authors/:id/tokens'],
    [`/admin/authors/alice/tokens/lat_${KEY}`, '/admin/authors/:id/tokens/:tokenId'],
    ['/console', '/console'],
    ['/console/', '/console/*'],
    [`/console/${KEY}.js`, '/console/*'],
    [`/admin/keys/${KEY}/buyer-link`, '/admin/keys/:cle/buyer-link'],
    // docs/protocol.md#buyer-links: a buyer path holds the link's token.
    ['/buyer/buyer.css', '/buyer/buyer.css'],
    [`/buyer/${KEY}.ABCDE`, '/buyer/:token'],
    [`/buyer/${KEY}.ABCDE/transfer`, '/buyer/:token/transfer'],
    [`/buyer/${KEY}/ABCDE`, '/buyer/*'],
    ['/buyer', '/buyer/*'],
    ['/buyer/', '/buyer/*'],
    ['/buyers', 'other'],
    ['/favicon.ico', '/favicon.ico'],
    ['/favicon.ico/x', 'other'],
    ['/consoles', 'other'],
    [`/${KEY}`, 'other'],
    ['/api/licence/', 'other'],
    ['/', 'other'],
    ['/administrator', 'other'],
    ['/ABCDE-FGHJK', 'other'],
  ])('%s -> %s', (path, label) => {
    expect(routeLabel(path)).toBe(label);
    expect(routeLabel(path)).not.toContain(KEY);
    expect(routeLabel(path)).not.toContain('ABCDE');
  });
});
