import { describe, expect, it } from 'vitest';
import { as, authorWithToken, call } from '../../test/authors.js';
import { admin, adminRequest, createHarness, json } from '../../test/harness.js';
import { PROBLEM_BASE } from '../http/index.js';
import type { ServiceResponse } from '../http/index.js';
import { parseWebhookSecret } from '../webhooks/index.js';

// POST and GET /admin/webhooks (docs/protocol.md#webhooks), through the service's handle(): the
// operator's endpoints (one author's, or every author's), an author token's own, the URL and event
// rules, and the secret shown once and never logged.

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const URL_WITH_TOKEN = 'https://shop.example:8443/hooks/licence?token=shop-private-token-42';

function expectProblem(response: ServiceResponse, status: number, type: string, detail: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['Content-Type']).toBe('application/problem+json');
  expect(json(response)).toMatchObject({ type: PROBLEM_BASE + type, status, detail });
}

describe('POST /admin/webhooks', () => {
  it('creates an endpoint of every author (operator, no author): 201 with the secret, shown once', async () => {
    const { service, clock } = createHarness();
    const made = await admin(
      service,
      'POST',
      '/admin/webhooks',
      { url: URL_WITH_TOKEN, events: ['verdict.refused', 'key.issued', 'key.issued'] },
      201,
    );
    expect(made).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9_-]{22}$/),
      url: URL_WITH_TOKEN,
      // Each once, in WEBHOOK_EVENT_TYPES order, whatever was given.
      events: ['key.issued', 'verdict.refused'],
      author: null,
      created: new Date(clock.nowMs).toISOString().replace('.000Z', 'Z'),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(parseWebhookSecret(made.secret).length).toBe(32);
    const { secret, ...shown } = made;
    expect(await admin(service, 'GET', '/admin/webhooks', undefined, 200)).toEqual({ webhooks: [shown] });
  });

  it('refuses an author its endpoint past LICENCE_WEBHOOKS_PER_AUTHOR: a 409 naming the limit and the variable', async () => {
    const { service } = createHarness({ webhooksPerAuthor: 2 });
    const alice = await authorWithToken(service, 'alice');
    const bob = await authorWithToken(service, 'bob');
    const body = { url: URL_WITH_TOKEN, events: ['key.issued'] };
    await call(service, alice.token, 'POST', '/admin/webhooks', body, 201);
    // Counted whoever adds it: the operator naming alice fills her quota too.
    await admin(service, 'POST', '/admin/webhooks', { ...body, author: 'alice' }, 201);
    const detail =
      'author alice already has 2 webhook endpoint(s), the most allowed (LICENCE_WEBHOOKS_PER_AUTHOR=2); remove one first';
    expectProblem(await service.handle(as(alice.token, 'POST', '/admin/webhooks', body)), 409, 'conflict', detail);
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/webhooks', { ...body, author: 'alice' })),
      409,
      'conflict',
      detail,
    );
    // Bob's quota is his own; the operator's every-author endpoints are not counted.
    await call(service, bob.token, 'POST', '/admin/webhooks', body, 201);
    await admin(service, 'POST', '/admin/webhooks', { ...body, author: 'bob' }, 201);
    for (let i = 0; i < 3; i += 1) await admin(service, 'POST', '/admin/webhooks', body, 201);
    const listed = await call(service, alice.token, 'GET', '/admin/webhooks', undefined, 200);
    expect(listed.webhooks).toHaveLength(2);
  });

  it('takes 10 endpoints per author by default, and refuses a quota that is not an integer from 0 to 1000', async () => {
    const { service } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    const body = { url: URL_WITH_TOKEN, events: ['key.issued'] };
    for (let i = 0; i < 10; i += 1) await call(service, alice.token, 'POST', '/admin/webhooks', body, 201);
    const refused = await service.handle(as(alice.token, 'POST', '/admin/webhooks', body));
    expect(refused.status).toBe(409);
    expect(json(refused).detail).toContain('(LICENCE_WEBHOOKS_PER_AUTHOR=10)');
    for (const webhooksPerAuthor of [-1, 1.5, 1001, Number.NaN]) {
      expect(() => createHarness({ webhooksPerAuthor })).toThrow(
        'webhooksPerAuthor: expected an integer from 0 to 1000',
      );
    }
  });

  it('logs the endpoint id and the URL origin, never the secret, the path or the query', async () => {
    const { service, logger } = createHarness();
    const made = await admin(service, 'POST', '/admin/webhooks', { url: URL_WITH_TOKEN, events: ['key.issued'] }, 201);
    const line = logger.lines.find((entry) => entry.fields.action === 'webhook.add');
    expect(line?.fields).toEqual({
      action: 'webhook.add',
      webhook: made.id,
      author: null,
      origin: 'https://shop.example:8443',
      events: ['key.issued'],
    });
    const text = logger.text();
    expect(text.includes(String(made.secret))).toBe(false);
    expect(text.includes(String(made.secret).slice(6, 20))).toBe(false);
    expect(text.includes('shop-private-token-42')).toBe(false);
    expect(text.includes('/hooks/licence')).toBe(false);
  });

  it('takes an author named by the operator, and refuses an unknown one with 404', async () => {
    const { service } = createHarness();
    await admin(service, 'POST', '/admin/authors', { id: 'alice', name: 'Alice' }, 201);
    const body = { url: 'https://shop.example/hook', events: ['key.revoked'], author: ' alice ' };
    expect(await admin(service, 'POST', '/admin/webhooks', body, 201)).toMatchObject({ author: 'alice' });
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/webhooks', { ...body, author: 'ghost' })),
      404,
      'not-found',
      'no author ghost',
    );
    expect((await admin(service, 'GET', '/admin/webhooks', undefined, 200)).webhooks).toHaveLength(1);
  });

  it("makes an author token's endpoint its own, named or left out; another author is a 403", async () => {
    const { service } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    await authorWithToken(service, 'bob');
    const url = 'https://alice.example/hook';
    const own = await call(service, alice.token, 'POST', '/admin/webhooks', { url, events: ['key.issued'] }, 201);
    expect(own).toMatchObject({ author: 'alice', secret: expect.stringMatching(/^whsec_/) });
    const named = { url, events: ['key.issued'], author: 'alice' };
    expect(await call(service, alice.token, 'POST', '/admin/webhooks', named, 201)).toMatchObject({ author: 'alice' });
    expectProblem(
      await service.handle(as(alice.token, 'POST', '/admin/webhooks', { ...named, author: 'bob' })),
      403,
      'forbidden',
      'author: this token manages webhooks of author alice only',
    );
    expect((await admin(service, 'GET', '/admin/webhooks', undefined, 200)).webhooks).toHaveLength(2);
  });

  const url = 'https://shop.example/hook';
  it.each([
    [undefined, 'url: is required'],
    [{ url: 7, events: ['key.issued'] }, 'url: expected a string'],
    [{ url: 'shop.example/hook', events: ['key.issued'] }, 'url: expected an absolute URL'],
    [{ url: 'ftp://shop.example/', events: ['key.issued'] }, 'url: expected an https URL, got the scheme "ftp"'],
    [
      { url: 'http://shop.example/', events: ['key.issued'] },
      'url: expected https (http only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    [
      { url: 'http://169.254.169.254/latest/meta-data/', events: ['key.issued'] },
      'url: 169.254.169.254 is not a public address: link-local (RFC 3927): the cloud metadata service 169.254.169.254 (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    [
      { url: 'https://127.0.0.1/hook', events: ['key.issued'] },
      'url: 127.0.0.1 is not a public address: loopback (RFC 1122) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    [
      { url: 'https://api.localhost/', events: ['key.issued'] },
      'url: api.localhost is not a public address: loopback (RFC 6761) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    ],
    [{ url: 'https://me:pw@shop.example/', events: ['key.issued'] }, 'url: must not hold a user name or password'],
    [{ url: 'https://shop.example/#top', events: ['key.issued'] }, 'url: must not hold a fragment (#)'],
    [{ url: `https://shop.example/${'a'.repeat(2048)}`, events: ['key.issued'] }, 'url: longer than 2048 characters'],
    [{ url }, 'events: is required'],
    [{ url, events: 'key.issued' }, 'events: expected an array of event types'],
    [{ url, events: [] }, 'events: expected at least one event type'],
    [{ url, events: ['key.issued', 3] }, 'events: expected an array of strings'],
    [
      { url, events: ['key.issued', 'key.deleted'] },
      'events: unknown event type "key.deleted"; expected among "key.issued", "key.regenerated", "key.transferred", "key.revoked", "domain.bound", "verdict.refused"',
    ],
    [{ url, events: ['key.issued'], author: 5 }, 'author: expected a string'],
    [{ url, events: ['key.issued'], author: ' ' }, 'author: is empty'],
  ])('answers %j with 400 %j', async (body, detail) => {
    const { service, logger } = createHarness();
    const response = await service.handle(adminRequest('POST', '/admin/webhooks', body));
    expectProblem(response, 400, 'invalid-request', detail);
    // A refused URL is never repeated (its query or user part may hold a credential).
    expect(response.body.includes(':pw@')).toBe(false);
    expect(logger.text().includes('shop.example')).toBe(false);
    expect((await admin(service, 'GET', '/admin/webhooks', undefined, 200)).webhooks).toEqual([]);
  });

  it('takes http and private addresses with webhookAllowPrivate (LICENCE_WEBHOOK_ALLOW_PRIVATE=1)', async () => {
    const { service } = createHarness({ webhookAllowPrivate: true });
    const body = { url: 'http://127.0.0.1:8080/hook', events: ['key.issued'] };
    expect(await admin(service, 'POST', '/admin/webhooks', body, 201)).toMatchObject({ url: body.url });
    // The URL's other rules still hold.
    expectProblem(
      await service.handle(adminRequest('POST', '/admin/webhooks', { ...body, url: 'http://127.0.0.1/#x' })),
      400,
      'invalid-request',
      'url: must not hold a fragment (#)',
    );
  });

  it('stores and shows the URL as the parser writes it', async () => {
    const { service } = createHarness();
    const body = { url: 'HTTPS://Shop.Example:443/a/../hook', events: ['key.issued'] };
    expect(await admin(service, 'POST', '/admin/webhooks', body, 201)).toMatchObject({
      url: 'https://shop.example/hook',
      created: expect.stringMatching(ISO),
    });
  });
});

describe('GET /admin/webhooks', () => {
  it('shows the operator every endpoint, oldest first, and an author token its own only', async () => {
    const { service, clock } = createHarness();
    const alice = await authorWithToken(service, 'alice');
    const bob = await authorWithToken(service, 'bob');
    const events = ['key.issued'];
    const every = await admin(service, 'POST', '/admin/webhooks', { url: 'https://all.example/', events }, 201);
    clock.advance(1000);
    const ofAlice = await call(
      service,
      alice.token,
      'POST',
      '/admin/webhooks',
      { url: 'https://a.example/', events },
      201,
    );
    clock.advance(1000);
    const ofBob = await admin(
      service,
      'POST',
      '/admin/webhooks',
      { url: 'https://b.example/', events, author: 'bob' },
      201,
    );

    const ids = async (token: string | null) => {
      const listed =
        token === null
          ? await admin(service, 'GET', '/admin/webhooks', undefined, 200)
          : await call(service, token, 'GET', '/admin/webhooks', undefined, 200);
      return (listed.webhooks as { id: string; secret?: string }[]).map((entry) => {
        expect(entry.secret).toBeUndefined();
        return entry.id;
      });
    };
    expect(await ids(null)).toEqual([every.id, ofAlice.id, ofBob.id]);
    // The endpoint of every author is the operator's: an author token does not see it.
    expect(await ids(alice.token)).toEqual([ofAlice.id]);
    expect(await ids(bob.token)).toEqual([ofBob.id]);
  });
});
