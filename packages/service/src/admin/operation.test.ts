import { describe, expect, it } from 'vitest';
import { ADMIN_OPERATIONS } from './operations.js';
import { commandSyntax } from './operation.js';

describe("commandSyntax: a usage line is the command's syntax", () => {
  it.each([
    ['purge [--json]', { name: 'purge', positionals: [], options: [] }],
    ['installations <produit> [--json]', { name: 'installations', positionals: ['produit'], options: [] }],
    [
      'author revoke-token <id> <tokenId> [--json]',
      { name: 'author revoke-token', positionals: ['id', 'tokenId'], options: [] },
    ],
    [
      'product staging <id> [pattern ...] [--json]  (the whole list; no pattern clears it)',
      { name: 'product staging', positionals: ['id'], rest: 'pattern', options: [] },
    ],
    [
      'key issue --produit <id> --kind buyer|trial|dev [--sites N] [--json]  (--product <id> is the same as --produit)',
      { name: 'key issue', positionals: [], options: ['produit', 'kind', 'sites', 'product'] },
    ],
    [
      'webhook add <url> --events <type,...> [--author <id>] [--json]',
      { name: 'webhook add', positionals: ['url'], options: ['events', 'author'] },
    ],
  ])('%s', (usage, syntax) => {
    expect(commandSyntax(usage)).toEqual(syntax);
  });

  it('gives every command of the table a name, and no two the same', () => {
    const names = Object.values(ADMIN_OPERATIONS).flatMap(({ command }) =>
      command === undefined ? [] : [command.name],
    );
    expect(names.length).toBeGreaterThan(15);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z-]*( [a-z][a-z-]*)?$/);
  });
});
