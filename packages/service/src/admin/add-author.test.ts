import { describe, expect, it } from 'vitest';
import { admin, adminRequest, createHarness, json } from '../../test/harness.js';

// docs/protocol.md#authors: authors, added and listed by the operator.

const created = '2026-11-22T10:14:00Z';

describe('POST and GET /admin/authors', () => {
  it('adds an author (201), then 409 for the same id; lists them by id', async () => {
    const { service, logger } = createHarness();
    expect(await admin(service, 'POST', '/admin/authors', { id: ' zoe ', name: ' Zoé ' }, 201)).toEqual({
      id: 'zoe',
      name: 'Zoé',
      created,
    });
    await admin(service, 'POST', '/admin/authors', { id: 'Jean Dupont', name: 'Jean' }, 201);
    const again = await service.handle(adminRequest('POST', '/admin/authors', { id: 'zoe', name: 'Other' }));
    expect(again.status).toBe(409);
    expect(json(again)).toMatchObject({
      type: 'https://licence.dev/problems/conflict',
      detail: 'author zoe already exists',
    });
    expect(await admin(service, 'GET', '/admin/authors', undefined, 200)).toEqual({
      authors: [
        { id: 'Jean Dupont', name: 'Jean', created },
        { id: 'zoe', name: 'Zoé', created },
      ],
    });
    expect(logger.lines.filter((line) => line.fields.action === 'author.add').map((line) => line.fields)).toEqual([
      { action: 'author.add', author: 'zoe' },
      { action: 'author.add', author: 'Jean Dupont' },
    ]);
  });

  it.each([
    [undefined, 'id: is required'],
    [{ name: 'A' }, 'id: is required'],
    [{ id: 7, name: 'A' }, 'id: expected a string'],
    [{ id: '  ', name: 'A' }, 'id: is empty'],
    [{ id: 'a\u0000b', name: 'A' }, 'id: must not hold control characters'],
    [{ id: 'alice' }, 'name: is required'],
    [{ id: 'alice', name: 'x'.repeat(201) }, 'name: expected at most 200 characters, got 201'],
  ])('answers %j with 400 %j', async (body, detail) => {
    const { service } = createHarness();
    const response = await service.handle(adminRequest('POST', '/admin/authors', body));
    expect(response.status).toBe(400);
    expect(json(response).detail).toBe(detail);
  });
});
