import { describe, expect, it } from 'vitest';
import { routeLabel } from './route-label.js';

describe('routeLabel (docs/protocol.md#privacy: no path, no key in a log line)', () => {
  it('names the public paths and /healthz as they are', () => {
    for (const path of ['/api/licence', '/api/license', '/healthz']) expect(routeLabel(path)).toBe(path);
  });

  it('names every admin path /admin/*, so a key in /admin/keys/:cle never reaches the log', () => {
    expect(routeLabel('/admin/keys/ABCDE-FGHJK-MNPQR-STVWX-YZ012/revoke')).toBe('/admin/*');
    expect(routeLabel('/admin')).toBe('/admin/*');
  });

  it('names anything else "other"', () => {
    for (const path of ['/', '/api/licence/', '/administrator', '/ABCDE-FGHJK']) expect(routeLabel(path)).toBe('other');
  });
});
