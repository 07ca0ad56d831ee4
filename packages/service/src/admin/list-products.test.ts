import { describe, expect, it } from 'vitest';
import { admin, createHarness, issue, verdict } from '../../test/harness.js';
import { installationCount } from './products.js';

// docs/protocol.md#administration: the product list, each with its installation count, the one
// rule of `GET /admin/products/:id/installations`.

describe('installationCount', () => {
  it('counts the domains of active keys only', () => {
    const domains = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ domain: `d${i}.fr`, firstSeen: 0, lastSeen: 0 }));
    expect(installationCount([])).toBe(0);
    expect(
      installationCount([
        { status: 'active', domains: domains(2) },
        { status: 'regeneration', domains: domains(2) },
        { status: 'revocation', domains: domains(1) },
        { status: 'active', domains: domains(3) },
      ]),
    ).toBe(5);
  });
});

describe('GET /admin/products', () => {
  it('lists every product by id with the count that installations answers', async () => {
    const { service } = createHarness();
    const cle = await issue(service, { produit: 'b-theme', author: 'bob', sites: 3 });
    await verdict(service, { cle, url: 'un.fr' }, 'un.fr');
    await verdict(service, { cle, url: 'deux.fr' }, 'deux.fr');
    // The regenerated key carries the domains on: counted once.
    await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    await admin(service, 'POST', '/admin/products', { id: 'a-theme', author: 'alice', name: 'A' }, 201);
    const listed = await admin(service, 'GET', '/admin/products', undefined, 200);
    expect(listed).toEqual({
      products: [
        { id: 'a-theme', author: 'alice', name: 'A', staging: [], installations: 0 },
        { id: 'b-theme', author: 'bob', name: 'b-theme', staging: [], installations: 2 },
      ],
    });
    expect((await admin(service, 'GET', '/admin/products/b-theme/installations', undefined, 200)).count).toBe(2);
  });

  it('is empty before any product', async () => {
    const { service } = createHarness();
    expect(await admin(service, 'GET', '/admin/products', undefined, 200)).toEqual({ products: [] });
  });
});
