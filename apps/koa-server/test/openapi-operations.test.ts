import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isRecord } from '@licence/http-vector-runner';
import { ADMIN_OPERATIONS, withAdminOperations } from '@licence/service';
import type { AdminOperations } from '@licence/service';

/**
 * docs/openapi.yaml against the admin operations' table (ADMIN_OPERATIONS of @licence/service,
 * CONTRIBUTING.md#architecture: "Declare once, derive the rest"). The document is written by hand
 * (bodies, schemas, every problem), so it is checked rather than generated: each operation of the
 * table is documented at its path and method, under its name as `operationId`, with its success
 * status; and each documented `/admin` operation is one of the table. openapi.test.ts then checks
 * real answers against what is documented.
 */

const DOC_FILE = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
const doc: unknown = parse(readFileSync(DOC_FILE, 'utf8'));
if (!isRecord(doc) || !isRecord(doc.paths)) throw new Error(`${DOC_FILE}: no paths`);
const document = doc;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isAdminPath = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');

/** An operation as the table implies it in OpenAPI: its path (`{cle}` for `:cle`), its method, its entry. */
interface ImpliedOperation {
  readonly path: string;
  readonly method: string;
  readonly entry: Readonly<Record<string, unknown>>;
}

/**
 * Each operation of the table by name, as withAdminOperations writes it into a document that has
 * none (admin/openapi.ts): what the check compares the document with.
 */
function impliedOperations(operations: AdminOperations): ReadonlyMap<string, ImpliedOperation> {
  const written = withAdminOperations({ paths: {} }, operations).paths;
  const implied = new Map<string, ImpliedOperation>();
  for (const [path, item] of Object.entries(isRecord(written) ? written : {})) {
    for (const [method, entry] of Object.entries(isRecord(item) ? item : {})) {
      if (isRecord(entry) && typeof entry.operationId === 'string')
        implied.set(entry.operationId, { path, method, entry });
    }
  }
  return implied;
}

/** The operation `name` as the table implies it; every operation of the table has one. */
function impliedOperation(operations: AdminOperations, name: string): ImpliedOperation {
  const implied = impliedOperations(operations).get(name);
  if (implied === undefined) throw new Error(`withAdminOperations wrote no entry for ${name}`);
  return implied;
}

/** What to paste for a missing operation: its entry as the table implies it (admin/openapi.ts). */
function suggestion(operations: AdminOperations, name: string, path: string, method: string): string {
  const { entry } = impliedOperation(operations, name);
  return stringify({ [path]: { [method]: entry } }, { indent: 2 }).trimEnd();
}

/** Where each operation of the table stands in `paths`: one line per fault, naming the operation. */
function undocumentedOperations(paths: Readonly<Record<string, unknown>>, operations: AdminOperations): string[] {
  const faults: string[] = [];
  for (const [name, operation] of Object.entries(operations)) {
    const { path } = impliedOperation(operations, name);
    const method = operation.method.toLowerCase();
    const label = `${name} (${operation.method} ${path})`;
    const item = paths[path];
    const entry = isRecord(item) ? item[method] : undefined;
    if (!isRecord(entry)) {
      faults.push(
        `${label}: no paths["${path}"].${method}; the table implies:\n${suggestion(operations, name, path, method)}`,
      );
      continue;
    }
    if (entry.operationId !== name)
      faults.push(`${label}: operationId is ${JSON.stringify(entry.operationId)}, not the operation's name "${name}"`);
    const status = String(operation.status);
    if (!isRecord(entry.responses) || entry.responses[status] === undefined)
      faults.push(`${label}: no "${status}" response, the operation's success status`);
  }
  return faults;
}

/** Each documented `/admin` operation that no operation of the table declares. */
function undeclaredOperations(paths: Readonly<Record<string, unknown>>, operations: AdminOperations): string[] {
  const declared = new Set(
    [...impliedOperations(operations).values()].map(({ method, path }) => `${method.toUpperCase()} ${path}`),
  );
  const faults: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isAdminPath(path) || !isRecord(item)) continue;
    for (const method of METHODS) {
      const entry = item[method];
      if (!isRecord(entry) || declared.has(`${method.toUpperCase()} ${path}`)) continue;
      faults.push(
        `${method.toUpperCase()} ${path} (operationId ${JSON.stringify(entry.operationId)}): documented, but no operation of ADMIN_OPERATIONS`,
      );
    }
  }
  return faults;
}

const disagreements = (document: Readonly<Record<string, unknown>>, operations: AdminOperations): string[] => {
  const paths = isRecord(document.paths) ? document.paths : {};
  return [...undocumentedOperations(paths, operations), ...undeclaredOperations(paths, operations)];
};

/**
 * The faults of a changed copy that the document itself does not have: the checks' own tests stay
 * green while the first test reports a real fault, and only it.
 */
function newFaults(copy: Readonly<Record<string, unknown>>): string[] {
  const known = new Set(disagreements(document, ADMIN_OPERATIONS));
  return disagreements(copy, ADMIN_OPERATIONS).filter((fault) => !known.has(fault));
}

/** A deep copy of the document, changed by `change` (the checks' own tests). */
function changed(change: (paths: Record<string, Record<string, Record<string, unknown>>>) => void) {
  const copy = structuredClone(document) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  change(copy.paths);
  return copy;
}

describe('docs/openapi.yaml and the admin operations table', () => {
  it('documents every operation of the table, and no admin operation beside them', () => {
    expect(Object.keys(ADMIN_OPERATIONS).length).toBeGreaterThan(20);
    expect(disagreements(document, ADMIN_OPERATIONS)).toEqual([]);
    // Nothing for withAdminOperations to add: the document users read is the one written.
    expect(withAdminOperations(document, ADMIN_OPERATIONS)).toEqual(document);
  });

  it('the check names the operation that is missing, renamed or without its success status', () => {
    const missing = changed((paths) => {
      delete paths['/admin/keys']?.post;
    });
    const [fault] = newFaults(missing);
    expect(fault).toMatch(/^issueKey \(POST \/admin\/keys\): no paths\["\/admin\/keys"\]\.post; the table implies:\n/);
    expect(fault).toContain('operationId: issueKey');
    // What withAdminOperations adds is what the check asks for.
    expect(newFaults(withAdminOperations(missing, ADMIN_OPERATIONS))).toEqual([]);

    const renamed = changed((paths) => {
      const entry = paths['/admin/authors/{id}/tokens/{tokenId}']?.delete;
      if (entry !== undefined) entry.operationId = 'deleteToken';
    });
    expect(newFaults(renamed)).toEqual([
      'revokeAuthorToken (DELETE /admin/authors/{id}/tokens/{tokenId}): operationId is "deleteToken", not the operation\'s name "revokeAuthorToken"',
    ]);

    const noSuccess = changed((paths) => {
      const responses = paths['/admin/webhooks/{id}/deliveries/{deliveryId}/retry']?.post?.responses;
      if (isRecord(responses)) delete responses['202'];
    });
    expect(newFaults(noSuccess)).toEqual([
      'retryWebhookDelivery (POST /admin/webhooks/{id}/deliveries/{deliveryId}/retry): no "202" response, the operation\'s success status',
    ]);
  });

  it('the check names a documented admin operation the table does not declare', () => {
    const extra = changed((paths) => {
      paths['/admin/keys/{cle}'] = {
        ...paths['/admin/keys/{cle}'],
        delete: { operationId: 'deleteKey', responses: {} },
      };
      // A path outside /admin is not the table's.
      paths['/elsewhere'] = { get: { operationId: 'elsewhere', responses: {} } };
    });
    expect(newFaults(extra)).toEqual([
      'DELETE /admin/keys/{cle} (operationId "deleteKey"): documented, but no operation of ADMIN_OPERATIONS',
    ]);
  });
});
