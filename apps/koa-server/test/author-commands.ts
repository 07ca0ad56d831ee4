import { expect } from 'vitest';
import type { CliResult } from './cli-process.js';
import { parseJson } from './serve-processes.js';

/**
 * The `licence author` commands (docs/protocol.md#authors) against a running `licence serve`, on
 * whatever store both use (the SQLite file of a data folder, or DATABASE_URL): the operator makes
 * two authors and their products from the command line, then a token printed by `author token`
 * opens the admin API to its author's products only. Shared by the SQLite and PostgreSQL suites.
 */

export type Cli = (args: readonly string[]) => Promise<CliResult>;

/** An author token: `lat_` and 43 base64url characters (256 random bits). */
export const AUTHOR_TOKEN = /^lat_[A-Za-z0-9_-]{43}$/;

/** A GET on the admin API with a Bearer token: status and JSON body (null for none). */
export async function adminGet(
  url: string,
  token: string,
  path: string,
): Promise<{ readonly status: number; readonly json: unknown }> {
  const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
}

/**
 * Every author command, checked, on the server at `url`. Resolves the tokens it printed (for the
 * caller's log hygiene check: none may appear in any log line or on stderr).
 */
export async function exerciseAuthorCommands(url: string, cli: Cli): Promise<string[]> {
  const tokens: string[] = [];
  const added = await cli(['author', 'add', 'alice', '--name', 'Alice Martin', '--json']);
  expect(added.code).toBe(0);
  expect(parseJson(added.stdout)).toEqual({ id: 'alice', name: 'Alice Martin', created: expect.any(String) });
  expect(await cli(['author', 'add', 'bob', '--name', 'Bob'])).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/^id: bob\nname: Bob\ncreated: \d{4}-\d\d-\d\dT/),
  });
  for (const [id, author] of [
    ['alice-theme', 'alice'],
    ['bob-theme', 'bob'],
  ] as const) {
    expect((await cli(['product', 'add', id, '--author', author, '--name', id])).code).toBe(0);
  }

  // --json: {id, token}, the token shown this once.
  const json = await cli(['author', 'token', 'alice', '--label', 'laptop', '--json']);
  expect(json.code).toBe(0);
  expect(json.stderr).toBe('');
  const first = parseJson(json.stdout);
  expect(first).toEqual({ id: expect.any(String), token: expect.stringMatching(AUTHOR_TOKEN) });
  const token = String(first.token);
  tokens.push(token);
  // Without --json: the token alone on stdout (for `$(...)`), its id on stderr.
  const human = await cli(['author', 'token', 'alice']);
  expect(human.code).toBe(0);
  expect(human.stdout).toMatch(/^lat_[A-Za-z0-9_-]{43}\n$/);
  const second = human.stdout.trimEnd();
  tokens.push(second);
  expect(human.stderr).toMatch(/^licence: author token \S+ of alice: shown only this once; .*\n$/);
  expect(second).not.toBe(token);

  await tokenOpensOnlyItsAuthor(url, token);
  await listAndRevoke(url, cli, String(first.id), token);
  await refusals(cli);
  return tokens;
}

/** The printed token as a Bearer on the running server's admin API (docs/protocol.md#authors). */
async function tokenOpensOnlyItsAuthor(url: string, token: string): Promise<void> {
  expect(await adminGet(url, token, '/admin/me')).toEqual({
    status: 200,
    json: { role: 'author', author: { id: 'alice', name: 'Alice Martin', created: expect.any(String) } },
  });
  expect((await adminGet(url, token, '/admin/products/alice-theme/installations')).status).toBe(200);
  // Another author's product is not found, exactly as a missing one.
  const other = await adminGet(url, token, '/admin/products/bob-theme/installations');
  const missing = await adminGet(url, token, '/admin/products/no-such-theme/installations');
  expect(other.status).toBe(404);
  expect(missing.status).toBe(404);
  const products = await adminGet(url, token, '/admin/products');
  expect(products).toMatchObject({ status: 200, json: { products: [{ id: 'alice-theme', author: 'alice' }] } });
  // Operator-only: the authors.
  expect((await adminGet(url, token, '/admin/authors')).status).toBe(403);
}

async function listAndRevoke(url: string, cli: Cli, tokenId: string, token: string): Promise<void> {
  const listed = await cli(['author', 'tokens', 'alice', '--json']);
  expect(listed.code).toBe(0);
  const { tokens } = parseJson(listed.stdout);
  // Oldest first, then by id: both were made within a second, so in either order.
  expect(tokens).toHaveLength(2);
  expect(tokens).toEqual(
    expect.arrayContaining([
      { id: tokenId, label: 'laptop', created: expect.any(String), lastUsed: expect.any(String) },
      { id: expect.any(String), label: null, created: expect.any(String), lastUsed: null },
    ]),
  );
  expect(listed.stdout).not.toContain('lat_');
  const human = await cli(['author', 'tokens', 'alice']);
  expect(human.stdout).toContain(`  - id: ${tokenId}\n    label: laptop\n    created: `);
  expect(human.stdout).toContain('    lastUsed: -\n');
  expect(await cli(['author', 'tokens', 'bob'])).toMatchObject({ code: 0, stdout: 'tokens: (none)\n' });

  const revoked = await cli(['author', 'revoke-token', 'alice', tokenId, '--json']);
  expect(revoked.code).toBe(0);
  expect(parseJson(revoked.stdout)).toEqual({ author: 'alice', id: tokenId, revoked: true });
  expect((await adminGet(url, token, '/admin/me')).status).toBe(401);
  const twice = await cli(['author', 'revoke-token', 'alice', tokenId]);
  expect(twice).toMatchObject({
    code: 1,
    stdout: '',
    stderr: expect.stringMatching(/^licence: author revoke-token: .+\n$/),
  });
}

/** What the service refuses is one line and exit 1; a usage mistake one line and exit 2. */
async function refusals(cli: Cli): Promise<void> {
  const taken = await cli(['author', 'add', 'alice', '--name', 'Alice again']);
  expect(taken).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^licence: author add: .+\n$/) });
  const unknown = await cli(['author', 'token', 'nobody']);
  expect(unknown).toMatchObject({
    code: 1,
    stdout: '',
    stderr: expect.stringMatching(/^licence: author token: .+\n$/),
  });
  const noName = await cli(['author', 'add', 'carol']);
  expect(noName).toEqual({
    code: 2,
    stdout: '',
    stderr: 'licence: author add: --name is required (usage: pnpm licence author add <id> --name <name> [--json])\n',
  });
  const noTokenId = await cli(['author', 'revoke-token', 'alice']);
  expect(noTokenId.code).toBe(2);
  expect(noTokenId.stderr.split('\n')).toEqual([expect.stringMatching(/^licence: author revoke-token: /), '']);
}
