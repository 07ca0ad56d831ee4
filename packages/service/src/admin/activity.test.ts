import { describe, expect, it } from 'vitest';
import { admin, adminRequest, createHarness, issue, json, verdict } from '../../test/harness.js';
import { DAY_SECONDS } from '../ports/index.js';
import { dayViews } from './activity.js';

// docs/protocol.md#activity: a product's verdicts per UTC day, every day of the range, oldest first.

const DAY_MS = DAY_SECONDS * 1000;

/** `GET /admin/products/:id/activity` with a raw query string, as an adapter hands it over. */
const activityRequest = (id: string, query?: string) => ({
  ...adminRequest('GET', `/admin/products/${id}/activity`),
  ...(query === undefined ? {} : { query }),
});

describe('dayViews', () => {
  it('fills every day of the range with zeros, oldest first, and sorts the refusals by motif', () => {
    const day = 20_000;
    expect(
      dayViews(day - 2, day, [
        { day, outcome: 'revocation', count: 2 },
        { day, outcome: 'ok', count: 5 },
        { day: day - 2, outcome: 'essai', count: 1 },
        { day, outcome: 'autre_domaine', count: 3 },
        // Outside the range: not shown.
        { day: day + 1, outcome: 'ok', count: 9 },
      ]),
    ).toEqual([
      { date: '2024-10-02', ok: 0, essai: 1, refusals: {} },
      { date: '2024-10-03', ok: 0, essai: 0, refusals: {} },
      { date: '2024-10-04', ok: 5, essai: 0, refusals: { autre_domaine: 3, revocation: 2 } },
    ]);
    expect(
      Object.keys(
        dayViews(day, day, [
          { day, outcome: 'transfert', count: 1 },
          { day, outcome: 'expiree', count: 1 },
        ])[0]?.refusals ?? {},
      ),
    ).toEqual(['expiree', 'transfert']);
  });
});

describe('GET /admin/products/:id/activity, from real verdicts', () => {
  it('counts ok, essai and each refusal per UTC day, zero-filled up to today', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, { produit: 'mon-theme', author: 'alice' });
    // Two days ago: two ok, one on a test host (essai), one from another domain.
    clock.advance(-2 * DAY_MS);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    await verdict(service, { cle, url: 'www.exemple.fr' }, 'exemple.fr');
    await verdict(service, { cle, url: 'localhost' }, 'localhost');
    await verdict(service, { cle, url: 'autre.fr' }, 'autre.fr');
    // Today: revoked, then refused; an unknown key counts for no product.
    clock.advance(2 * DAY_MS);
    await admin(service, 'POST', `/admin/keys/${cle}/revoke`, {}, 200);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    await verdict(service, { cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', url: 'exemple.fr' }, 'exemple.fr');

    const answer = json(await service.handle(activityRequest('mon-theme', 'days=4')));
    expect(answer).toEqual({
      product: 'mon-theme',
      days: [
        { date: '2026-11-19', ok: 0, essai: 0, refusals: {} },
        { date: '2026-11-20', ok: 2, essai: 1, refusals: { autre_domaine: 1 } },
        { date: '2026-11-21', ok: 0, essai: 0, refusals: {} },
        { date: '2026-11-22', ok: 0, essai: 0, refusals: { revocation: 1 } },
      ],
    });
  });

  it('counts a verdict for the requested product when the key opens it, else for the key’s own', async () => {
    const { service } = createHarness();
    const dev = await issue(service, { produit: 'theme-1', author: 'alice', kind: 'dev' });
    await admin(service, 'POST', '/admin/products', { id: 'theme-2', author: 'alice', name: 'T2' }, 201);
    await admin(service, 'POST', '/admin/products', { id: 'theme-3', author: 'bob', name: 'T3' }, 201);
    // A dev key opens every product of its author, and answers essai (docs/protocol.md#key-lifecycle).
    await verdict(service, { cle: dev, url: 'exemple.fr', produit: 'theme-2' }, 'exemple.fr');
    // Not Bob's: refused, and counted for the key's own product, not for Bob's.
    await verdict(service, { cle: dev, url: 'exemple.fr', produit: 'theme-3' }, 'exemple.fr');
    const today = async (id: string) =>
      (json(await service.handle(activityRequest(id, 'days=1'))).days as unknown[])[0];
    expect(await today('theme-2')).toEqual({ date: '2026-11-22', ok: 0, essai: 1, refusals: {} });
    expect(await today('theme-1')).toEqual({ date: '2026-11-22', ok: 0, essai: 0, refusals: { inconnue: 1 } });
    expect(await today('theme-3')).toEqual({ date: '2026-11-22', ok: 0, essai: 0, refusals: {} });
  });

  it('puts a verdict in its UTC day: 23:59:59 and 00:00:00 are two days', async () => {
    const { service, clock } = createHarness();
    const cle = await issue(service, {});
    clock.nowMs = Date.UTC(2026, 10, 22, 23, 59, 59);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    clock.nowMs = Date.UTC(2026, 10, 23, 0, 0, 0);
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    const days = json(await service.handle(activityRequest('mon-theme', 'days=2'))).days;
    expect(days).toEqual([
      { date: '2026-11-22', ok: 1, essai: 0, refusals: {} },
      { date: '2026-11-23', ok: 2, essai: 0, refusals: {} },
    ]);
  });

  it('answers 30 days by default and up to 366, today last; other query parameters are ignored', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'p', author: 'a', name: 'P' }, 201);
    for (const [query, count, first] of [
      [undefined, 30, '2026-10-24'],
      ['lang=fr&x', 30, '2026-10-24'],
      ['days=1', 1, '2026-11-22'],
      ['days=90', 90, '2026-08-25'],
      ['days=366', 366, '2025-11-22'],
    ] as const) {
      const days = json(await service.handle(activityRequest('p', query))).days as { date: string }[];
      expect(days).toHaveLength(count);
      expect(days[0]?.date).toBe(first);
      expect(days.at(-1)?.date).toBe('2026-11-22');
    }
  });

  it.each([
    ['days=0', 'days: expected an integer from 1 to 366'],
    ['days=367', 'days: expected an integer from 1 to 366'],
    ['days=7.5', 'days: expected an integer from 1 to 366'],
    ['days=seven', 'days: expected an integer from 1 to 366'],
    ['days=', 'days: expected an integer from 1 to 366'],
    ['days=7&days=7', 'days: expected once, got 2 times'],
  ])('answers ?%s with 400 %j', async (query, detail) => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/products', { id: 'p', author: 'a', name: 'P' }, 201);
    const response = await service.handle(activityRequest('p', query));
    expect(response.status).toBe(400);
    expect(json(response).detail).toBe(detail);
  });

  it('answers 404 for an unknown product', async () => {
    const { service } = createHarness();
    const response = await service.handle(activityRequest('nope'));
    expect(response.status).toBe(404);
    expect(json(response).detail).toBe('no product nope');
  });
});
