import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
// The table, for this test only: the bundle takes nothing from the service but types (the last
// test here checks it), so the client is checked against the table instead of made from it.
import { ADMIN_OPERATIONS } from '@licence/service';
import type { AdminOperations } from '@licence/service';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from './api.js';

/**
 * `createApi` against the admin operations' table (CONTRIBUTING.md#architecture: "Declare once,
 * derive the rest"): one method per operation, under its name, sending its method to its path
 * (docs/protocol.md#admin-http-api), and no method that is no operation. Over real HTTP on
 * loopback, as api.test.ts, so what is checked is what the client sends.
 */

const TOKEN = 'lat_TEST0nly-TokenXYZ_0123456789abcdefghijklmnopq';
/** The method and the path of each request, in the order they came. */
const seen: { method: string; path: string }[] = [];
let server: Server;
let base: string;
/** The stage prefix the console keeps (api.test.ts): the table's paths follow it. */
const STAGE = '/stage';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: new URL(req.url ?? '', 'http://recorder').pathname });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STAGE}/admin/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A placeholder per `:name` segment, in the path's order, each its own (so a swap shows). */
const placeholders = (path: string): string[] =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment, index) => `p${index}-${segment.slice(1)}`);

/** The path the operation's route gives those placeholders, after the stage prefix. */
function expectedPath(path: string): string {
  const values = placeholders(path);
  let next = 0;
  const segments = path.split('/').map((segment) => (segment.startsWith(':') ? (values[next++] ?? '') : segment));
  return `${STAGE}${segments.join('/')}`;
}

/** Calls `name` of `api` as the operation's route takes it, and returns what reached the recorder. */
async function sent(api: Readonly<Record<string, unknown>>, name: string, operation: AdminOperations[string]) {
  const method = api[name];
  if (typeof method !== 'function') return undefined;
  const body = operation.method === 'POST' || operation.method === 'PATCH' ? [{}] : [];
  seen.length = 0;
  // Only the request matters here; api.test.ts checks how answers are read.
  const call: unknown = method(...placeholders(operation.path), ...body);
  await Promise.resolve(call).catch(() => undefined);
  return seen.map((request) => `${request.method} ${request.path}`);
}

/** Every disagreement of `api` with the table, one line each naming the operation or the method. */
async function faults(api: Readonly<Record<string, unknown>>, operations: AdminOperations): Promise<string[]> {
  const found: string[] = [];
  for (const [name, operation] of Object.entries(operations)) {
    const requests = await sent(api, name, operation);
    const expected = `${operation.method} ${expectedPath(operation.path)}`;
    const route = `${operation.method} ${operation.path}`;
    if (requests === undefined) found.push(`${name} (${route}): createApi has no method ${name}`);
    else if (requests.length !== 1 || requests[0] !== expected)
      found.push(`${name} (${route}): sent [${requests.join(', ')}], expected [${expected}]`);
  }
  for (const name of Object.keys(api))
    if (!Object.hasOwn(operations, name)) found.push(`${name}: createApi's method is no operation of ADMIN_OPERATIONS`);
  return found;
}

describe("the console's API client and the admin operations table", () => {
  it('has one method per operation, under its name, sending its method to its path, and no other', async () => {
    expect(Object.keys(ADMIN_OPERATIONS).length).toBeGreaterThan(20);
    expect(await faults(createApi({ base, token: TOKEN }), ADMIN_OPERATIONS)).toEqual([]);
  });

  it('the check names a missing method, a wrong route, swapped parameters and a method of its own', async () => {
    const { purge: _purge, ...api } = createApi({ base, token: TOKEN });
    const wrong = {
      ...api,
      removeWebhook: (id: string) => api.webhookDeliveries(id),
      retryWebhookDelivery: (id: string, delivery: string) => api.retryWebhookDelivery(delivery, id),
      deleteToken: api.revokeAuthorToken,
    };
    // Only what the changes add: a fault of createApi itself is the first test's to report.
    const known = new Set(await faults(createApi({ base, token: TOKEN }), ADMIN_OPERATIONS));
    const added = (await faults(wrong, ADMIN_OPERATIONS)).filter((fault) => !known.has(fault));
    expect(added).toEqual([
      'purge (POST /admin/purge): createApi has no method purge',
      'removeWebhook (DELETE /admin/webhooks/:id): sent [GET /stage/admin/webhooks/p0-id/deliveries], expected [DELETE /stage/admin/webhooks/p0-id]',
      'retryWebhookDelivery (POST /admin/webhooks/:id/deliveries/:deliveryId/retry): sent [POST /stage/admin/webhooks/p1-deliveryId/deliveries/p0-id/retry], expected [POST /stage/admin/webhooks/p0-id/deliveries/p1-deliveryId/retry]',
      "deleteToken: createApi's method is no operation of ADMIN_OPERATIONS",
    ]);
  });

  it('the bundle takes nothing from @licence/service but types (esbuild, as scripts/build.mjs bundles main.tsx)', async () => {
    // esbuild drops type-only imports before resolving, so what reaches here imports a value,
    // which would drag the service (node:crypto...) into the page; the importer is named.
    const importers: string[] = [];
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./main.tsx', import.meta.url))],
      bundle: true,
      write: false,
      metafile: true,
      jsx: 'automatic',
      jsxImportSource: 'preact',
      format: 'esm',
      logLevel: 'silent',
      plugins: [
        {
          name: 'service-importers',
          setup(plugin) {
            plugin.onResolve({ filter: /^@licence\/service$/ }, (args) => {
              importers.push(args.importer.slice(args.importer.indexOf('src/')));
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    expect(Object.keys(result.metafile.inputs).some((input) => input.endsWith('src/api.ts'))).toBe(true);
    expect(importers).toEqual([]);
  });
});
