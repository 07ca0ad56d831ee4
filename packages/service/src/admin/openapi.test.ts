import { describe, expect, it } from 'vitest';
import {
  adminOpenApiOperation,
  adminOpenApiPaths,
  openApiPath,
  pathParameterNames,
  withAdminOperations,
} from './openapi.js';
import type { AdminOperations, AnyAdminOperation } from './operation.js';
import { ADMIN_OPERATIONS } from './operations.js';

/** A made-up operation: only its declaration is read, never its input or its call. */
function declared(declaration: Pick<AnyAdminOperation, 'method' | 'path' | 'status' | 'scope'>): AnyAdminOperation {
  return {
    ...declaration,
    summary: `${declaration.method} ${declaration.path}`,
    input: () => [],
    run: async () => undefined,
  };
}

const forAuthors = { operator: false, resource: 'product' } as const;

const MADE_UP: AdminOperations = {
  listThings: declared({ method: 'GET', path: '/admin/things', status: 200, scope: forAuthors }),
  dropPart: declared({
    method: 'DELETE',
    path: '/admin/things/:thing/parts/:partId',
    status: 204,
    scope: { operator: true, refused: 'drop parts' },
  }),
  addThing: declared({ method: 'POST', path: '/admin/things', status: 201, scope: forAuthors }),
};

describe('adminOpenApiPaths: the OpenAPI paths the operations table implies', () => {
  it('writes `:name` segments as `{name}`, and lists them in the path order', () => {
    expect(openApiPath('/admin/keys/:cle/buyer-link')).toBe('/admin/keys/{cle}/buyer-link');
    expect(openApiPath('/admin/webhooks/:id/deliveries/:deliveryId/retry')).toBe(
      '/admin/webhooks/{id}/deliveries/{deliveryId}/retry',
    );
    expect(openApiPath('/admin/purge')).toBe('/admin/purge');
    expect(pathParameterNames('/admin/webhooks/:id/deliveries/:deliveryId/retry')).toEqual(['id', 'deliveryId']);
    expect(pathParameterNames('/admin/me')).toEqual([]);
  });

  it('one entry per operation: lower-case method, operationId, summary, path parameters, success status', () => {
    const paths = adminOpenApiPaths(MADE_UP);
    expect(Object.keys(paths).sort()).toEqual(['/admin/things', '/admin/things/{thing}/parts/{partId}']);
    // Two methods of one path share its item.
    expect(Object.keys(paths['/admin/things'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(paths['/admin/things']?.get).toEqual({
      operationId: 'listThings',
      summary: 'GET /admin/things',
      tags: ['admin'],
      security: [{ bearer: [] }],
      responses: { '200': { description: 'Done; the answer is JSON.' } },
    });
    expect(paths['/admin/things']?.post?.responses).toEqual({ '201': { description: 'Created; the answer is JSON.' } });
    const drop = paths['/admin/things/{thing}/parts/{partId}']?.delete;
    expect(drop?.operationId).toBe('dropPart');
    expect(drop?.parameters?.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['thing', 'path', true],
      ['partId', 'path', true],
    ]);
    expect(drop?.responses).toEqual({ '204': { description: 'Done; no body.' } });
  });

  it("says when only the operator may run it, with the admin error table's message (docs/protocol.md#authors)", () => {
    const drop = adminOpenApiOperation('dropPart', MADE_UP.dropPart as AnyAdminOperation);
    expect(drop.description).toBe(
      'Operator only (docs/protocol.md#authors): an author token is refused with a 403 forbidden problem, "only the operator\'s token may drop parts".',
    );
    expect(adminOpenApiOperation('listThings', MADE_UP.listThings as AnyAdminOperation)).not.toHaveProperty(
      'description',
    );
  });

  it('covers the whole real table: each operation once, under its own name', () => {
    const entries = Object.values(adminOpenApiPaths(ADMIN_OPERATIONS)).flatMap((item) => Object.values(item));
    expect(entries.map((entry) => entry.operationId).sort()).toEqual(Object.keys(ADMIN_OPERATIONS).sort());
    const operatorOnly = entries.filter((entry) => entry.description !== undefined).map((entry) => entry.operationId);
    expect(operatorOnly.sort()).toEqual(['addAuthor', 'listAuthors', 'purge']);
  });
});

describe('withAdminOperations: a document with every operation of the table', () => {
  const documentedList = { operationId: 'listThings', summary: 'Written by hand', responses: { '200': {} } };
  const document = Object.freeze({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: Object.freeze({
      '/healthz': { get: { operationId: 'health' } },
      '/admin/things': Object.freeze({ summary: 'Things', get: documentedList }),
    }),
  });

  it('adds what the document lacks and leaves what it documents as it is', () => {
    const result = withAdminOperations(document, MADE_UP);
    const paths = result.paths as Record<string, Record<string, unknown>>;
    expect(result.openapi).toBe('3.1.0');
    expect(result.info).toBe(document.info);
    expect(paths['/healthz']).toBe(document.paths['/healthz']);
    // The documented GET is kept whole; the POST of the same path is added beside it.
    expect(paths['/admin/things']?.get).toBe(documentedList);
    expect(paths['/admin/things']?.summary).toBe('Things');
    expect(paths['/admin/things']?.post).toEqual(adminOpenApiPaths(MADE_UP)['/admin/things']?.post);
    expect(paths['/admin/things/{thing}/parts/{partId}']).toEqual(
      adminOpenApiPaths(MADE_UP)['/admin/things/{thing}/parts/{partId}'],
    );
    // The document itself is untouched (it is frozen: a write would have thrown).
    expect(Object.keys(document.paths['/admin/things'])).toEqual(['summary', 'get']);
  });

  it('changes nothing when every operation is documented, and makes `paths` when there is none', () => {
    const complete = withAdminOperations(document, { listThings: MADE_UP.listThings as AnyAdminOperation });
    expect(complete).toEqual(document);
    expect((complete.paths as Record<string, unknown>)['/admin/things']).toBe(document.paths['/admin/things']);
    expect(withAdminOperations({ openapi: '3.1.0' }, MADE_UP)).toEqual({
      openapi: '3.1.0',
      paths: adminOpenApiPaths(MADE_UP),
    });
  });
});
