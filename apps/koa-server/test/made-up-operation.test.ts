import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_OPERATIONS,
  type AdminOperation,
  type AdminOperations,
  createKeyAdmin,
  createMemoryRateLimiter,
  createNodeSigner,
  createService,
  type Store,
  withAdminOperations,
} from '@licence/service';
import { createMemoryStore } from '@licence/store-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runAdminAction } from '../src/admin-command.js';
import { parseCliArgs } from '../src/cli-args.js';
import { usageText } from '../src/cli-commands.js';
import { createApp } from '../src/create-app.js';
import { captureLogs } from './capture-logs.js';

/**
 * CONTRIBUTING.md#architecture, "one declaration per admin operation": an operation made up here,
 * declared once (route, scope, input, implementation, command) on a memory store with one more
 * method, is reachable over HTTP through the Koa app, from the `licence` command line (its help,
 * its arguments, its run) and in the OpenAPI document, and no file of the repository names it.
 */

/** The memory store, plus what the made-up operation needs of its store: notes on a product. */
interface NotesStore extends Store {
  addProductNote(productId: string, note: string): Promise<number>;
}

function notesStore(): NotesStore {
  const notes = new Map<string, string[]>();
  return Object.assign(createMemoryStore(), {
    addProductNote: async (productId: string, note: string) => {
      const list = [...(notes.get(productId) ?? []), note];
      notes.set(productId, list);
      return list.length;
    },
  });
}

interface NoteAction {
  readonly name: 'product note';
  readonly id: string;
  readonly text: string;
}

const addProductNote: AdminOperation<[productId: string, note: string], { id: string; notes: number }> = {
  method: 'POST',
  path: '/admin/products/:id/notes',
  status: 201,
  summary: 'Add a note to a product (made up by a test)',
  scope: { operator: true, refused: 'write notes' },
  input: (parts) => [parts.params.id ?? '', String((parts.body as { note?: unknown } | undefined)?.note ?? '')],
  run: async (context, productId, note) => ({
    id: productId,
    notes: await (context.store as NotesStore).addProductNote(productId, note),
  }),
  command: {
    name: 'product note',
    usage: 'product note <id> --text <note> [--json]',
    help: 'product note <id> --text <note>',
    helpNote: 'a note on the product (made up by a test)',
    positionals: ['id'],
    options: ['text'],
    read: (args) => {
      const text = args.option('text');
      if (text === undefined) return { mistake: 'product note: --text is required', showUsage: true };
      return { name: 'product note', id: args.positional(0), text };
    },
    args: (action) => [(action as NoteAction).id, (action as NoteAction).text],
  },
};

const TABLE: AdminOperations = { ...ADMIN_OPERATIONS, addProductNote };
const ADMIN_TOKEN = 'made-up-operation-token-0123456789-abcdef';
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function ports(store: NotesStore) {
  const { logger } = captureLogs();
  return {
    store,
    clock: { now: Date.now },
    logger,
    random: (length: number) => new Uint8Array(randomBytes(length)),
  };
}

describe('a made-up admin operation, declared once', () => {
  it('is reachable over HTTP through the Koa app', async () => {
    const store = notesStore();
    const { logger, ...rest } = ports(store);
    const service = createService({
      ...rest,
      logger,
      rateLimiter: createMemoryRateLimiter(),
      signer: createNodeSigner(new Uint8Array(randomBytes(32))),
      adminToken: ADMIN_TOKEN,
      adminOperations: TABLE,
    });
    const server = createServer(createApp({ service, logger }).callback());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    const post = (note: string) =>
      fetch(`http://127.0.0.1:${address.port}/admin/products/theme/notes`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ note }),
      });
    const first = await post('first');
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ id: 'theme', notes: 1 });
    expect(await (await post('second')).json()).toEqual({ id: 'theme', notes: 2 });
    // The declared method only: another one is the 405 of any admin route, with its Allow.
    const wrong = await fetch(`http://127.0.0.1:${address.port}/admin/products/theme/notes`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('is a licence command: in the help, its arguments read, run as the operator', async () => {
    expect(usageText(TABLE)).toContain('product note <id> --text <note>');
    expect(usageText(ADMIN_OPERATIONS)).not.toContain('product note');
    expect(parseCliArgs(['product', 'note', 'theme'], TABLE)).toEqual({
      kind: 'usage',
      message: 'product note: --text is required (usage: pnpm licence product note <id> --text <note> [--json])',
    });
    const command = parseCliArgs(['product', 'note', 'theme', '--text', 'hello', '--json'], TABLE);
    expect(command).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'product note', id: 'theme', text: 'hello' },
    });
    if (command.kind !== 'admin') throw new Error('not an admin command');
    // The CLI runs as the operator (docs/protocol.md#authors): createKeyAdmin's default principal.
    const admin = createKeyAdmin(ports(notesStore()), { role: 'operator' }, TABLE);
    expect(await runAdminAction(admin, command.action, undefined, TABLE)).toEqual({ id: 'theme', notes: 1 });
    // Without the declaration, the same words are no command.
    expect(parseCliArgs(['product', 'note', 'theme', '--text', 'hello'])).toMatchObject({ kind: 'usage' });
  });

  it('is in the OpenAPI document the service documents', () => {
    const file = fileURLToPath(new URL('../../../docs/openapi.yaml', import.meta.url));
    const document = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    expect(document.paths['/admin/products/{id}/notes']).toBeUndefined();
    const extended = withAdminOperations(document, TABLE) as typeof document;
    expect(extended.paths['/admin/products/{id}/notes']?.post).toMatchObject({ operationId: 'addProductNote' });
  });
});
