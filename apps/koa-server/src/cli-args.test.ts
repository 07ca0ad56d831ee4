import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

const KEY = 'GNZ76-1VG7G-9DKMJ-VN3ZG-QSJXJ';
const NORMALISED = 'GNZ761VG7G9DKMJVN3ZGQSJXJ';

describe('parseCliArgs (docs/protocol.md#administration)', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']]])('%j prints the usage', (argv) => {
    const command = parseCliArgs(argv);
    expect(command.kind).toBe('help');
    expect(command.kind === 'help' && command.text).toContain(
      'licence key issue --produit <id> --kind buyer|trial|dev',
    );
  });

  it('serve', () => {
    expect(parseCliArgs(['serve'])).toEqual({ kind: 'serve' });
  });

  it('keygen needs --out or --print-seed', () => {
    expect(parseCliArgs(['keygen', '--out', 'k'])).toEqual({ kind: 'keygen', out: 'k', printSeed: false, json: false });
    expect(parseCliArgs(['keygen', '--print-seed', '--json'])).toEqual({ kind: 'keygen', printSeed: true, json: true });
    expect(parseCliArgs(['keygen'])).toEqual({
      kind: 'usage',
      message: 'keygen: give --out FILE to write a new signing key (mode 0600), or --print-seed to print it',
    });
  });

  it('token, with or without --json, and nothing else', () => {
    expect(parseCliArgs(['token'])).toEqual({ kind: 'token', json: false });
    expect(parseCliArgs(['token', '--json'])).toEqual({ kind: 'token', json: true });
    expect(parseCliArgs(['token', '--out', 'x']).kind).toBe('usage');
    expect(parseCliArgs(['token', '--help'])).toEqual({
      kind: 'help',
      text: 'Usage: pnpm licence token [--json]  (a new LICENCE_ADMIN_TOKEN: 32 random bytes, base64url)\n',
    });
  });

  it('product add', () => {
    expect(parseCliArgs(['product', 'add', 'theme', '--author', 'me', '--name', 'Mon thème', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'product add', id: 'theme', author: 'me', productName: 'Mon thème' },
    });
    expect(parseCliArgs(['product', 'add', 'theme', '--author', 'me']).kind).toBe('usage');
  });

  it('product add --staging: a comma list of patterns, split and trimmed (docs/protocol.md#staging-hosts)', () => {
    const argv = [
      'product',
      'add',
      'theme',
      '--author',
      'me',
      '--name',
      'T',
      '--staging',
      ' *.recette.fr, staging-*.a.fr ',
    ];
    expect(parseCliArgs(argv)).toEqual({
      kind: 'admin',
      json: false,
      action: {
        name: 'product add',
        id: 'theme',
        author: 'me',
        productName: 'T',
        staging: ['*.recette.fr', 'staging-*.a.fr'],
      },
    });
    const none = parseCliArgs(['product', 'add', 'theme', '--author', 'me', '--name', 'T', '--staging', ' ']);
    expect(none.kind === 'admin' && none.action).toMatchObject({ staging: [] });
    // An empty entry is kept for key administration to refuse, as LICENCE_STAGING_HOSTS refuses one.
    const empty = parseCliArgs(['product', 'add', 'theme', '--author', 'me', '--name', 'T', '--staging', 'a.fr,']);
    expect(empty.kind === 'admin' && empty.action).toMatchObject({ staging: ['a.fr', ''] });
  });

  it('product staging <id> [pattern ...]: the whole list, none clears it', () => {
    expect(parseCliArgs(['product', 'staging', 'theme', '*.recette.fr', 'staging-*.a.fr', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'product staging', id: 'theme', staging: ['*.recette.fr', 'staging-*.a.fr'] },
    });
    expect(parseCliArgs(['product', 'staging', 'theme'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'product staging', id: 'theme', staging: [] },
    });
    expect(parseCliArgs(['product', 'staging'])).toEqual({
      kind: 'usage',
      message:
        'product staging: expected <id> [pattern ...], got 0 (usage: pnpm licence product staging <id> [pattern ...] [--json]  (the whole list; no pattern clears it))',
    });
    const group = parseCliArgs(['product']);
    expect(group.kind === 'help' && group.text).toContain('licence product staging <id> [pattern ...]');
  });

  it('key issue with every option', () => {
    expect(
      parseCliArgs([
        'key',
        'issue',
        '--produit',
        'theme',
        '--kind',
        'trial',
        '--sites',
        '3',
        '--expire',
        '2027-01-01T00:00:00Z',
      ]),
    ).toEqual({
      kind: 'admin',
      json: false,
      action: {
        name: 'key issue',
        produit: 'theme',
        kind: 'trial',
        sites: 3,
        expire: Date.parse('2027-01-01T00:00:00Z') / 1000,
      },
    });
  });

  it('key issue reads --expire as an RFC 3339 date-time with a zone, to seconds', () => {
    expect(
      parseCliArgs(['key', 'issue', '--produit', 'p', '--kind', 'trial', '--expire', '2027-01-01T01:00:00+02:00']),
    ).toMatchObject({ kind: 'admin', action: { expire: Date.parse('2026-12-31T23:00:00Z') / 1000 } });
  });

  it.each([
    [['key', 'issue', '--kind', 'buyer'], 'key issue: --produit (or --product) is required'],
    [['key', 'issue', '--produit', 'p'], 'key issue: --kind must be one of buyer, trial, dev'],
    [
      ['key', 'issue', '--produit', 'p', '--kind', 'gold'],
      'key issue: --kind must be one of buyer, trial, dev, got "gold"',
    ],
    [
      ['key', 'issue', '--produit', 'p', '--kind', 'buyer', '--sites', 'two'],
      'key issue: --sites must be a whole number, got "two"',
    ],
    [
      ['key', 'issue', '--produit', 'p', '--kind', 'trial', '--expire', '2027-01-01'],
      'key issue: --expire must be an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z, got "2027-01-01"',
    ],
    [['key', 'issue', '--produit', 'p', '--kind', 'buyer', '--bogus'], 'key issue: unknown option --bogus (usage: '],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['key', 'frobnicate'], 'unknown command "key frobnicate"'],
    [['key', 'show'], 'key show: expected <cle>, got 0'],
    [['purge', 'extra'], 'purge: expected no argument, got 1'],
    [['author', 'add', 'alice'], 'author add: --name is required (usage: pnpm licence author add <id> --name <name>'],
    [['author', 'add', '--name', 'Alice'], 'author add: expected <id>, got 0'],
    [['author', 'token'], 'author token: expected <id>, got 0'],
    [['author', 'token', 'alice', '--label'], "author token: Option '--label <value>' argument missing"],
    [['author', 'tokens', 'alice', 'bob'], 'author tokens: expected <id>, got 2'],
    [['author', 'revoke-token', 'alice'], 'author revoke-token: expected <id> <tokenId>, got 1'],
    [['author', 'remove', 'alice'], 'unknown command "author remove"'],
    [
      ['webhook', 'add', 'https://shop.example/hooks'],
      'webhook add: --events is required (usage: pnpm licence webhook add <url> --events <type,...>',
    ],
    [
      ['webhook', 'add', 'https://shop.example/hooks', '--events', 'key.issued,key.stolen'],
      'webhook add: --events must be a comma-separated list of key.issued, key.regenerated, key.transferred, key.revoked, domain.bound, verdict.refused, got "key.stolen"',
    ],
    [['webhook', 'add', 'https://shop.example/hooks', '--events', 'key.issued,'], 'webhook add: --events must be'],
    [['webhook', 'add', '--events', 'key.issued'], 'webhook add: expected <url>, got 0'],
    [['webhook', 'list', 'wh_1'], 'webhook list: expected no argument, got 1'],
    [['webhook', 'remove'], 'webhook remove: expected <id>, got 0'],
    [['webhook', 'rotate', 'wh_1', 'wh_2'], 'webhook rotate: expected <id>, got 2'],
    [['webhook', 'deliveries'], 'webhook deliveries: expected <id>, got 0'],
    [['webhook', 'retry', 'wh_1'], 'webhook retry: expected <id> <deliveryId>, got 1'],
    [['webhook', 'send', 'wh_1'], 'unknown command "webhook send"'],
  ])('%j is a usage error', (argv, start) => {
    const command = parseCliArgs(argv);
    expect(command.kind).toBe('usage');
    expect(command.kind === 'usage' && command.message.startsWith(start)).toBe(true);
  });

  it('normalises the key of key commands (docs/protocol.md#key-normalisation)', () => {
    expect(parseCliArgs(['key', 'show', KEY])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'key show', cle: NORMALISED },
    });
    expect(parseCliArgs(['key', 'regenerate', KEY.toLowerCase(), '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'key regenerate', cle: NORMALISED },
    });
    expect(parseCliArgs(['key', 'transfer', KEY, '--from', 'a.fr', '--to', 'b.fr'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'key transfer', cle: NORMALISED, from: 'a.fr', to: 'b.fr' },
    });
    expect(parseCliArgs(['key', 'revoke', KEY, '--reason', 'fraud'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'key revoke', cle: NORMALISED, reason: 'fraud' },
    });
  });

  it('key buyer-link: --ttl in whole seconds, --base a public URL (docs/protocol.md#buyer-links)', () => {
    expect(parseCliArgs(['key', 'buyer-link', KEY])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'key buyer-link', cle: NORMALISED },
    });
    expect(
      parseCliArgs(['key', 'buyer-link', KEY, '--ttl', '3600', '--base', 'https://Licences.Exemple.fr/', '--json']),
    ).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'key buyer-link', cle: NORMALISED, ttl: 3600, base: 'https://licences.exemple.fr' },
    });
    expect(parseCliArgs(['key', 'buyer-link', KEY, '--ttl', '1h'])).toEqual({
      kind: 'usage',
      message: 'key buyer-link: --ttl must be a whole number of seconds, got "1h"',
    });
    expect(parseCliArgs(['key', 'buyer-link', KEY, '--base', 'licences.exemple.fr'])).toEqual({
      kind: 'usage',
      message: 'key buyer-link: --base expected an absolute http:// or https:// URL',
    });
  });

  it('refuses a key with no letter or digit', () => {
    expect(parseCliArgs(['key', 'show', '.*.'])).toEqual({ kind: 'usage', message: 'cle: holds no letter or digit' });
  });

  it('installations and purge', () => {
    expect(parseCliArgs(['installations', 'theme', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'installations', produit: 'theme' },
    });
    expect(parseCliArgs(['purge'])).toEqual({ kind: 'admin', json: false, action: { name: 'purge' } });
  });

  it('author add, token, tokens and revoke-token (docs/protocol.md#authors)', () => {
    expect(parseCliArgs(['author', 'add', 'alice', '--name', 'Alice Martin', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'author add', id: 'alice', authorName: 'Alice Martin' },
    });
    expect(parseCliArgs(['author', 'token', 'alice'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'author token', id: 'alice' },
    });
    expect(parseCliArgs(['author', 'token', 'alice', '--label', 'laptop', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'author token', id: 'alice', label: 'laptop' },
    });
    expect(parseCliArgs(['author', 'tokens', 'alice'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'author tokens', id: 'alice' },
    });
    expect(parseCliArgs(['author', 'revoke-token', 'alice', 'tok_123', '--json'])).toEqual({
      kind: 'admin',
      json: true,
      action: { name: 'author revoke-token', id: 'alice', tokenId: 'tok_123' },
    });
    const group = parseCliArgs(['author']);
    expect(group.kind === 'help' && group.text).toBe(
      'Usage:\n' +
        '  pnpm licence author add <id> --name <name> [--json]\n' +
        '  pnpm licence author token <id> [--label <label>] [--json]  (the token is printed this once)\n' +
        '  pnpm licence author tokens <id> [--json]\n' +
        '  pnpm licence author revoke-token <id> <tokenId> [--json]\n',
    );
    const help = parseCliArgs(['--help']);
    expect(help.kind === 'help' && help.text).toContain('licence author revoke-token <id> <tokenId>');
  });

  it('webhook add, list, remove, rotate, deliveries and retry (docs/protocol.md#webhooks)', () => {
    expect(
      parseCliArgs([
        'webhook',
        'add',
        'https://shop.example/hooks?x=1',
        '--events',
        'key.issued, verdict.refused',
        '--author',
        'alice',
        '--json',
      ]),
    ).toEqual({
      kind: 'admin',
      json: true,
      action: {
        name: 'webhook add',
        url: 'https://shop.example/hooks?x=1',
        events: ['key.issued', 'verdict.refused'],
        author: 'alice',
      },
    });
    expect(parseCliArgs(['webhook', 'add', 'https://shop.example/', '--events', 'domain.bound'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'webhook add', url: 'https://shop.example/', events: ['domain.bound'] },
    });
    expect(parseCliArgs(['webhook', 'list'])).toEqual({ kind: 'admin', json: false, action: { name: 'webhook list' } });
    for (const name of ['remove', 'rotate', 'deliveries'] as const) {
      expect(parseCliArgs(['webhook', name, 'wh_1', '--json'])).toEqual({
        kind: 'admin',
        json: true,
        action: { name: `webhook ${name}`, id: 'wh_1' },
      });
    }
    expect(parseCliArgs(['webhook', 'retry', 'wh_1', 'dlv_2'])).toEqual({
      kind: 'admin',
      json: false,
      action: { name: 'webhook retry', id: 'wh_1', deliveryId: 'dlv_2' },
    });
    const group = parseCliArgs(['webhook']);
    expect(group.kind === 'help' && group.text).toBe(
      'Usage:\n' +
        '  pnpm licence webhook add <url> --events <type,...> [--author <id>] [--json]  (the secret is printed this once)\n' +
        '  pnpm licence webhook list [--json]\n' +
        '  pnpm licence webhook remove <id> [--json]\n' +
        '  pnpm licence webhook rotate <id> [--json]  (the new secret is printed this once; the previous ones sign 24 h more)\n' +
        '  pnpm licence webhook deliveries <id> [--json]\n' +
        '  pnpm licence webhook retry <id> <deliveryId> [--json]\n',
    );
    const help = parseCliArgs(['--help']);
    expect(help.kind === 'help' && help.text).toContain('licence webhook retry <id> <deliveryId>');
    expect(help.kind === 'help' && help.text).toContain('LICENCE_WEBHOOK_ALLOW_PRIVATE');
  });

  // A name that is no command must never fall through to one, least of all to purge, which erases
  // stored IP addresses (docs/protocol.md#privacy): names inherited from Object.prototype included.
  it.each([
    [['frobnicate']],
    [['purges']],
    [['PURGE']],
    [[' purge']],
    [['toString']],
    [['constructor']],
    [['__proto__']],
    [['hasOwnProperty']],
    [['key', 'purge']],
    [['key', 'toString']],
    [['product', '__proto__']],
    [['author', 'purge']],
    [['author', 'constructor']],
    [['webhook', 'purge']],
    [['webhook', '__proto__']],
  ])('%j is an unknown command, never purge', (argv) => {
    const command = parseCliArgs(argv);
    expect(command.kind).toBe('usage');
    // A near name is only suggested (`purges`: did you mean "purge"?), never run.
    expect(command.kind === 'usage' && command.message.startsWith(`unknown command "${argv.join(' ')}"; `)).toBe(true);
  });

  it('per-command help', () => {
    const command = parseCliArgs(['key', 'transfer', '--help']);
    expect(command.kind === 'help' && command.text).toContain(
      'licence key transfer <cle> [--from <host>] [--to <host>]',
    );
    const group = parseCliArgs(['key']);
    expect(group.kind === 'help' && group.text).toContain('licence key revoke');
  });
});

describe('did you mean (docs/protocol.md#the-licence-cli)', () => {
  it.each([
    [['kye'], 'unknown command "kye"; did you mean "key"? (run `pnpm licence --help`)'],
    [['kye', 'show', 'ABCD'], 'unknown command "kye"; did you mean "key show"? (run `pnpm licence --help`)'],
    [['server'], 'unknown command "server"; did you mean "serve"? (run `pnpm licence --help`)'],
    [['PURGE'], 'unknown command "PURGE"; did you mean "purge"? (run `pnpm licence --help`)'],
    [['key', 'shwo', 'ABCD'], 'unknown command "key shwo"; did you mean "key show"? (run `pnpm licence --help`)'],
    [['webhook', 'lsit'], 'unknown command "webhook lsit"; did you mean "webhook list"? (run `pnpm licence --help`)'],
    [['frobnicate'], 'unknown command "frobnicate"; run `pnpm licence --help`'],
    [['author', 'remove', 'alice'], 'unknown command "author remove"; run `pnpm licence --help`'],
  ])('%j: one line naming the nearest command', (argv, message) => {
    expect(parseCliArgs(argv)).toEqual({ kind: 'usage', message });
  });

  it('names the nearest option of the command', () => {
    expect(parseCliArgs(['key', 'issue', '--prodiut', 'p', '--kind', 'buyer'])).toEqual({
      kind: 'usage',
      message:
        'key issue: unknown option --prodiut; did you mean --produit? (usage: pnpm licence key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601] [--json]  (--product <id> is the same as --produit))',
    });
    const json = parseCliArgs(['webhook', 'list', '--jsno']);
    expect(json.kind === 'usage' && json.message).toMatch(
      /^webhook list: unknown option --jsno; did you mean --json\? /,
    );
    // The value of an unknown `--option=value` is never repeated: it may be a key.
    const valued = parseCliArgs(['key', 'show', '--cle=GNZ76-1VG7G-9DKMJ-VN3ZG-QSJXJ']);
    expect(valued).toEqual({
      kind: 'usage',
      message: 'key show: unknown option --cle (usage: pnpm licence key show <cle> [--json])',
    });
  });

  it('never repeats a long unknown word: it may be a pasted key', () => {
    expect(parseCliArgs([KEY, 'show'])).toEqual({
      kind: 'usage',
      message: 'unknown command (a word of 29 characters, not repeated here); run `pnpm licence --help`',
    });
  });
});

describe('key issue --product, the alias of --produit (docs/protocol.md#the-licence-cli)', () => {
  const issued = { kind: 'admin', json: false, action: { name: 'key issue', produit: 'theme', kind: 'buyer' } };

  it('is the same option', () => {
    expect(parseCliArgs(['key', 'issue', '--product', 'theme', '--kind', 'buyer'])).toEqual(issued);
    expect(parseCliArgs(['key', 'issue', '--produit', 'theme', '--kind', 'buyer'])).toEqual(issued);
    expect(parseCliArgs(['key', 'issue', '--produit', 'theme', '--product', 'theme', '--kind', 'buyer'])).toEqual(
      issued,
    );
  });

  it('refuses both with different values', () => {
    expect(parseCliArgs(['key', 'issue', '--produit', 'theme', '--product', 'plugin', '--kind', 'buyer'])).toEqual({
      kind: 'usage',
      message: 'key issue: --product is another name for --produit; give one of them',
    });
  });
});

describe('key issue: the options each kind takes are usage (exit 2), as malformed ones are', () => {
  it.each([
    [
      ['--kind', 'trial'],
      "key issue: --kind trial needs --expire, the trial's end (ISO 8601, such as 2026-12-31T23:59:59Z) (usage: ",
    ],
    [
      ['--kind', 'buyer', '--expire', '2027-01-01T00:00:00Z'],
      'key issue: --expire is for --kind trial only; leave it out for a buyer key',
    ],
    [
      ['--kind', 'dev', '--expire', '2027-01-01T00:00:00Z'],
      'key issue: --expire is for --kind trial only; leave it out for a dev key',
    ],
    [['--kind', 'dev', '--sites', '2'], 'key issue: a dev key binds no domain; leave --sites out'],
  ])('%j', (options, start) => {
    const command = parseCliArgs(['key', 'issue', '--produit', 'p', ...options]);
    expect(command.kind).toBe('usage');
    expect(command.kind === 'usage' && command.message.startsWith(start)).toBe(true);
  });

  it('a dev key without --sites and a buyer key with it are fine', () => {
    expect(parseCliArgs(['key', 'issue', '--produit', 'p', '--kind', 'dev']).kind).toBe('admin');
    expect(parseCliArgs(['key', 'issue', '--produit', 'p', '--kind', 'buyer', '--sites', '2']).kind).toBe('admin');
  });
});

describe('the key argument: a whole key, or a usage line saying why not (docs/protocol.md#key-normalisation)', () => {
  const shape = 'a key is 25 characters of 0-9 and A-Z without I, L, O or U, as XXXXX-XXXXX-XXXXX-XXXXX-XXXXX';

  it.each([
    [['key', 'show', 'hello'], `key show: "hello" is not a licence key: ${shape} (docs/protocol.md#key-normalisation)`],
    [
      ['key', 'revoke', 'QSJXJ-0'],
      `key revoke: "QSJXJ-0" is not a licence key: ${shape} (docs/protocol.md#key-normalisation)`,
    ],
    [
      ['key', 'regenerate', 'sjxj'],
      "key regenerate: SJXJ looks like a key's hint (its last four characters); give the whole key: the service finds a key by it alone (docs/protocol.md#key-normalisation)",
    ],
    // One character short: not repeated, it is most of a key.
    [
      ['key', 'show', KEY.slice(1)],
      `key show: the argument (24 letters and digits, not repeated here) is not a licence key: ${shape} (docs/protocol.md#key-normalisation)`,
    ],
    // O is no character of a key (docs/protocol.md#key-normalisation: no Crockford re-mapping).
    [
      ['key', 'transfer', KEY.replace('0', 'O').replace('Z', 'O')],
      `key transfer: the argument (25 letters and digits, not repeated here) is not a licence key: ${shape} (docs/protocol.md#key-normalisation)`,
    ],
  ])('%j', (argv, message) => {
    expect(parseCliArgs(argv)).toEqual({ kind: 'usage', message });
  });
});
