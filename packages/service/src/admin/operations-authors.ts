import * as fields from './fields.js';
import { command, inputs, mistake, operation, param } from './operation.js';
import { given } from './command-values.js';
import { addAuthor } from './add-author.js';
import { createAuthorToken } from './create-token.js';
import { listAuthors } from './list-authors.js';
import { listAuthorTokens } from './list-tokens.js';
import { me } from './me.js';
import { revokeAuthorToken } from './revoke-token.js';

/**
 * Authors and their tokens (docs/protocol.md#authors), each operation declared once
 * (operation.ts). An author token reaches its own author only.
 */

const addAuthorOperation = operation(addAuthor, {
  route: 'POST /admin/authors',
  summary: 'Add an author, who owns the products whose `author` is its id',
  scope: { operator: true, refused: 'add authors' },
  input: ({ body }) => inputs(fields.authorInput(body)),
  command: command({
    usage: 'author add <id> --name <name> [--json]',
    help: 'author add <id> --name <n>',
    read: (args) => {
      const authorName = args.option('name');
      if (authorName === undefined) return mistake('author add: --name is required', true);
      return { name: 'author add', id: args.positional(0), authorName };
    },
    args: (action) => inputs({ id: action.id, name: action.authorName }),
  }),
});

const createTokenOperation = operation(createAuthorToken, {
  route: 'POST /admin/authors/:id/tokens',
  summary: 'A new author token, shown this once',
  scope: { operator: false, resource: 'author' },
  input: (parts) => inputs(param(parts, 'id'), fields.tokenInput(parts.body)),
  command: command({
    usage: 'author token <id> [--label <label>] [--json]  (the token is printed this once)',
    help: 'author token <id> [--label <l>]',
    helpNote: 'a new author token, printed this once',
    read: (args) => ({ name: 'author token', id: args.positional(0), ...given('label', args.option('label')) }),
    args: (action) => inputs(action.id, { label: action.label }),
    // docs/protocol.md#authors: like `licence token`, the token alone on stdout, so
    // `$(pnpm -s licence author token ...)` takes it whole; its id (to revoke it) on stderr.
    alone: (action, result) => {
      const token = result as { readonly id?: unknown; readonly token?: unknown } | null;
      if (typeof token?.id !== 'string' || typeof token.token !== 'string') return undefined;
      return {
        out: token.token,
        note: `author token ${token.id} of ${action.id}: shown only this once; the service keeps only its SHA-256 (docs/protocol.md#authors)`,
      };
    },
  }),
});

const listTokensOperation = operation(listAuthorTokens, {
  route: 'GET /admin/authors/:id/tokens',
  summary: "An author's tokens: id, label, created, last used (never the token)",
  scope: { operator: false, resource: 'author' },
  input: (parts) => inputs(param(parts, 'id')),
  command: command({
    usage: 'author tokens <id> [--json]',
    help: 'author tokens <id>',
    helpNote: "the author's tokens: id, label, created, last used",
    read: (args) => ({ name: 'author tokens', id: args.positional(0) }),
    args: (action) => inputs(action.id),
  }),
});

const revokeTokenOperation = operation(revokeAuthorToken, {
  route: 'DELETE /admin/authors/:id/tokens/:tokenId',
  summary: 'Revoke an author token',
  scope: { operator: false, resource: 'author' },
  input: (parts) => inputs(param(parts, 'id'), param(parts, 'tokenId')),
  command: command({
    usage: 'author revoke-token <id> <tokenId> [--json]',
    help: 'author revoke-token <id> <tokenId>',
    read: (args) => ({ name: 'author revoke-token', id: args.positional(0), tokenId: args.positional(1) }),
    args: (action) => inputs(action.id, action.tokenId),
    // The HTTP answer is an empty 204; the CLI says what it revoked.
    answer: (action) => ({ author: action.id, id: action.tokenId, revoked: true }),
  }),
});

export const AUTHOR_OPERATIONS = {
  me: operation(me, {
    route: 'GET /admin/me',
    summary: 'Who the token acts for: the operator, or an author',
    scope: { operator: false, resource: 'principal' },
    input: () => inputs(),
  }),
  listAuthors: operation(listAuthors, {
    route: 'GET /admin/authors',
    summary: 'Every author, by id',
    scope: { operator: true, refused: 'list authors' },
    input: () => inputs(),
  }),
  addAuthor: addAuthorOperation,
  createAuthorToken: createTokenOperation,
  listAuthorTokens: listTokensOperation,
  revokeAuthorToken: revokeTokenOperation,
};
