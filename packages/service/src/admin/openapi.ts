import { adminError } from './errors.js';
import type { AdminMethod, AdminOperation, AdminOperations, AnyAdminOperation } from './operation.js';

/**
 * The OpenAPI `paths` the operations' table implies (CONTRIBUTING.md#architecture, "Declare once,
 * derive the rest"): what docs/openapi.yaml must hold at least for each admin operation, and what
 * `withAdminOperations` adds to a document that lacks one. docs/openapi.yaml says more per
 * operation by hand (bodies, schemas, every problem status); apps/koa-server's
 * openapi-operations.test.ts checks the two agree on what the table declares.
 */

export type OpenApiMethod = Lowercase<AdminMethod>;

/** A path parameter: one non-empty segment (docs/protocol.md#admin-http-api). */
export interface OpenApiPathParameter {
  readonly name: string;
  readonly in: 'path';
  readonly required: true;
  readonly schema: { readonly type: 'string'; readonly minLength: 1 };
}

export interface OpenApiOperation {
  /** The operation's name in the table: the console's method, the OpenAPI operationId. */
  readonly operationId: string;
  readonly summary: string;
  /** Present for an operator-only operation, which says so. */
  readonly description?: string;
  readonly tags: readonly ['admin'];
  readonly security: readonly [{ readonly bearer: readonly [] }];
  readonly parameters?: readonly OpenApiPathParameter[];
  readonly responses: Readonly<Record<string, { readonly description: string }>>;
}

export type OpenApiPathItem = Readonly<Partial<Record<OpenApiMethod, OpenApiOperation>>>;
export type OpenApiPaths = Readonly<Record<string, OpenApiPathItem>>;

/** What a success answers, by status (docs/protocol.md#admin-http-api: a 204 has no body). */
const SUCCESS: Readonly<Record<AdminOperation['status'], string>> = {
  200: 'Done; the answer is JSON.',
  201: 'Created; the answer is JSON.',
  202: 'Accepted; the answer is JSON.',
  204: 'Done; no body.',
};

/** `/admin/keys/:cle` as OpenAPI writes it, `/admin/keys/{cle}`. */
export function openApiPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
}

/** The `:name` segments of a path, in its order. */
export function pathParameterNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/**
 * One operation's entry. An operator-only one says so (docs/protocol.md#authors): an author token
 * is refused with a 403, whose message is the admin error table's.
 */
export function adminOpenApiOperation(name: string, operation: AnyAdminOperation): OpenApiOperation {
  const parameters = pathParameterNames(operation.path).map(
    (parameter): OpenApiPathParameter => ({
      name: parameter,
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1 },
    }),
  );
  const { scope } = operation;
  return {
    operationId: name,
    summary: operation.summary,
    ...(scope.operator
      ? {
          description: `Operator only (docs/protocol.md#authors): an author token is refused with a 403 forbidden problem, "${adminError('OPERATOR_ONLY', scope.refused).message}".`,
        }
      : {}),
    tags: ['admin'],
    security: [{ bearer: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: { [String(operation.status)]: { description: SUCCESS[operation.status] } },
  };
}

/** The `paths` entries of every operation of the table, by OpenAPI path then lower-case method. */
export function adminOpenApiPaths(operations: AdminOperations): OpenApiPaths {
  const paths: Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>> = {};
  for (const [name, operation] of Object.entries(operations)) {
    const path = openApiPath(operation.path);
    const item = paths[path] ?? {};
    item[lowerMethod(operation.method)] = adminOpenApiOperation(name, operation);
    paths[path] = item;
  }
  return paths;
}

function lowerMethod(method: AdminMethod): OpenApiMethod {
  switch (method) {
    case 'GET':
      return 'get';
    case 'POST':
      return 'post';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
  }
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `document` with every operation of the table it lacks (no `paths[path][method]`) added from
 * `adminOpenApiPaths`, so that an operation declared but not yet written up still reaches the
 * document the service's users read. What the document holds is kept as it is: a documented
 * operation, another method of the same path, the path item's other fields. A new object; the
 * document is not changed.
 */
export function withAdminOperations(
  document: Readonly<Record<string, unknown>>,
  operations: AdminOperations,
): Record<string, unknown> {
  const documented = isRecord(document.paths) ? document.paths : {};
  const paths: Record<string, unknown> = { ...documented };
  for (const [path, derived] of Object.entries(adminOpenApiPaths(operations))) {
    const item = paths[path];
    const existing = isRecord(item) ? item : {};
    const missing = Object.entries(derived).filter(([method]) => existing[method] === undefined);
    if (missing.length > 0) paths[path] = { ...existing, ...Object.fromEntries(missing) };
  }
  return { ...document, paths };
}
