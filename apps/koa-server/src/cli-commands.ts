import type { ParseArgsConfig } from 'node:util';
import { WEBHOOK_EVENT_TYPES } from '@licence/service';

/**
 * The commands of the `licence` command line (docs/protocol.md#administration): each name, its
 * usage line and its options. `CommandName` is this table's keys, so a new command is a name the
 * dispatch in cli-args.ts must handle (or fail to compile).
 */

/**
 * How the command is typed in a clone of the repository: the root package.json's `licence` script
 * (docs/protocol.md#administration). `node apps/koa-server/bin/licence.mjs` is the same program.
 */
export const COMMAND = 'pnpm licence';

/**
 * How the server is started from the repository root: node itself, with no package manager between
 * it and the signals of a process manager (docs/protocol.md#the-licence-cli: npx does not pass
 * SIGTERM on, and pnpm adds a line after a failed start).
 */
export const SERVE_COMMAND = 'node apps/koa-server/bin/licence.mjs serve';

export const USAGE = `licence: the licence verification service and its administration

Usage (from the repository root; \`pnpm -s licence\` keeps pnpm's own lines out of the output):
  ${SERVE_COMMAND}           start the HTTP service (embedded SQLite default);
                                                       node itself, so that SIGTERM reaches the server
  ${COMMAND} keygen --out FILE | --print-seed        make a new Ed25519 signing key, print its public key
  ${COMMAND} token                                   print a new admin token for LICENCE_ADMIN_TOKEN
  ${COMMAND} product add <id> --author <a> --name <n> [--staging <pattern,...>]
  ${COMMAND} product staging <id> [pattern ...]      set the product's staging host patterns; none clears them
  ${COMMAND} key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601]
                                                       --product <id> is --produit (the wire field's name) in English
  ${COMMAND} key show <cle>                          the whole key: the service finds a key by it, not by its hint
  ${COMMAND} key regenerate <cle>
  ${COMMAND} key transfer <cle> [--from <host>] [--to <host>]
  ${COMMAND} key revoke <cle> [--reason <text>]
  ${COMMAND} key buyer-link <cle> [--ttl <seconds>] [--base <url>]
                                                       a link for the key's buyer (LICENCE_PUBLIC_URL or --base)
  ${COMMAND} installations <produit>
  ${COMMAND} purge                                   delete request-log entries (and IPs) older than 12 months
  ${COMMAND} author add <id> --name <n>
  ${COMMAND} author token <id> [--label <l>]         a new author token, printed this once
  ${COMMAND} author tokens <id>                      the author's tokens: id, label, created, last used
  ${COMMAND} author revoke-token <id> <tokenId>
  ${COMMAND} webhook add <url> --events <type,...> [--author <id>]
                                                       a shop's endpoint; its secret, printed this once
  ${COMMAND} webhook list
  ${COMMAND} webhook remove <id>
  ${COMMAND} webhook rotate <id>                     a new secret, printed this once; the old one signs 24 h more
  ${COMMAND} webhook deliveries <id>                 the last 100 deliveries and their attempts
  ${COMMAND} webhook retry <id> <deliveryId>         send a delivery again, now

Options:
  --json        print the result as JSON (every command that prints data)
  -h, --help    this help; \`${COMMAND} <command> --help\` for one command

Environment (docs/protocol.md#configuration; default in brackets):
  HOST, PORT                           where serve listens [127.0.0.1, 8080]
  LICENCE_DATA_DIR                     the SQLite file and the generated signing key [./data]
  DATABASE_URL                         postgres://...: PostgreSQL instead of the SQLite file
  LICENCE_SIGNING_KEY                  the Ed25519 seed (base64), or LICENCE_SIGNING_KEY_FILE: a file holding it
  LICENCE_ADMIN_TOKEN                  turns on the admin HTTP API and the console [off]
  TRUST_PROXY                          your proxies: a hop count, or better a CIDR list [none]
  LOG_LEVEL                            fatal, error, warn, info, debug, trace or silent [info]
  LICENCE_MAX_CONNECTIONS              connections serve holds at once [10000]
  LICENCE_MAX_CONNECTIONS_PER_IP       connections at once from one client address [100]
  LICENCE_WORKERS                      worker processes of serve: 1 to 64, or auto (one per core) [1]
  LICENCE_WEBHOOK_ALLOW_PRIVATE        1: webhook URLs may use http and private addresses [off]
  LICENCE_WEBHOOKS_PER_AUTHOR          webhook endpoints one author may have, 0 to 1000 [10]
  LICENCE_WEBHOOK_CONCURRENCY          webhook delivery attempts in flight at once, 1 to 1000 [32]
  LICENCE_STAGING_HOSTS                staging host patterns for every product [none]
  LICENCE_PUBLIC_URL                   where buyers reach the service: buyer links start with it
  LICENCE_BUYER_TRANSFERS_PER_30_DAYS  transfers a buyer may make per key in 30 days [3]
Admin commands work on the store of LICENCE_DATA_DIR (default ./data), or of DATABASE_URL,
directly, as the operator: no token needed. An author token (\`author token\`) opens the admin
HTTP API and the console (/console) to that author's own products only (docs/protocol.md#authors).
Webhook events (docs/protocol.md#webhooks): ${WEBHOOK_EVENT_TYPES.join(', ')}.
An http or private-address webhook URL needs LICENCE_WEBHOOK_ALLOW_PRIVATE=1 (CLI and server).
A staging host pattern (docs/protocol.md#staging-hosts) is a host name whose leftmost label may
hold one *: *.flywheelstaging.com, staging-*.kinsta.cloud. Quote it in a shell.
Exit codes: 0 done, 1 error, 2 usage (an unknown command or option, a missing or malformed one).
`;

export interface CommandSpec {
  readonly usage: string;
  readonly positionals: readonly string[];
  /** The name of the any-number positionals that may follow `positionals` (`pattern ...`); none when absent. */
  readonly rest?: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
}

const JSON_OPTION = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

const COMMANDS = {
  serve: { usage: SERVE_COMMAND, positionals: [], options: { help: JSON_OPTION.help } },
  keygen: {
    usage: `${COMMAND} keygen [--out FILE] [--print-seed] [--json]  (writes FILE with mode 0600, never over an existing file)`,
    positionals: [],
    options: { ...JSON_OPTION, out: { type: 'string' }, 'print-seed': { type: 'boolean' } },
  },
  token: {
    usage: `${COMMAND} token [--json]  (a new LICENCE_ADMIN_TOKEN: 32 random bytes, base64url)`,
    positionals: [],
    options: JSON_OPTION,
  },
  'product add': {
    usage: `${COMMAND} product add <id> --author <author> --name <name> [--staging <pattern,...>] [--json]`,
    positionals: ['id'],
    options: { ...JSON_OPTION, author: { type: 'string' }, name: { type: 'string' }, staging: { type: 'string' } },
  },
  'product staging': {
    usage: `${COMMAND} product staging <id> [pattern ...] [--json]  (the whole list; no pattern clears it)`,
    positionals: ['id'],
    rest: 'pattern',
    options: JSON_OPTION,
  },
  'key issue': {
    usage: `${COMMAND} key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601] [--json]  (--product <id> is the same as --produit)`,
    positionals: [],
    options: {
      ...JSON_OPTION,
      produit: { type: 'string' },
      // docs/protocol.md#the-licence-cli: the English alias of the wire field's name.
      product: { type: 'string' },
      kind: { type: 'string' },
      sites: { type: 'string' },
      expire: { type: 'string' },
    },
  },
  'key show': { usage: `${COMMAND} key show <cle> [--json]`, positionals: ['cle'], options: JSON_OPTION },
  'key regenerate': { usage: `${COMMAND} key regenerate <cle> [--json]`, positionals: ['cle'], options: JSON_OPTION },
  'key transfer': {
    usage: `${COMMAND} key transfer <cle> [--from <host>] [--to <host>] [--json]`,
    positionals: ['cle'],
    options: { ...JSON_OPTION, from: { type: 'string' }, to: { type: 'string' } },
  },
  'key revoke': {
    usage: `${COMMAND} key revoke <cle> [--reason <text>] [--json]`,
    positionals: ['cle'],
    options: { ...JSON_OPTION, reason: { type: 'string' } },
  },
  'key buyer-link': {
    usage: `${COMMAND} key buyer-link <cle> [--ttl <seconds>] [--base <url>] [--json]  (the link opens the key's page to whoever has it)`,
    positionals: ['cle'],
    options: { ...JSON_OPTION, ttl: { type: 'string' }, base: { type: 'string' } },
  },
  installations: {
    usage: `${COMMAND} installations <produit> [--json]`,
    positionals: ['produit'],
    options: JSON_OPTION,
  },
  purge: { usage: `${COMMAND} purge [--json]`, positionals: [], options: JSON_OPTION },
  'author add': {
    usage: `${COMMAND} author add <id> --name <name> [--json]`,
    positionals: ['id'],
    options: { ...JSON_OPTION, name: { type: 'string' } },
  },
  'author token': {
    usage: `${COMMAND} author token <id> [--label <label>] [--json]  (the token is printed this once)`,
    positionals: ['id'],
    options: { ...JSON_OPTION, label: { type: 'string' } },
  },
  'author tokens': { usage: `${COMMAND} author tokens <id> [--json]`, positionals: ['id'], options: JSON_OPTION },
  'author revoke-token': {
    usage: `${COMMAND} author revoke-token <id> <tokenId> [--json]`,
    positionals: ['id', 'tokenId'],
    options: JSON_OPTION,
  },
  'webhook add': {
    usage: `${COMMAND} webhook add <url> --events <type,...> [--author <id>] [--json]  (the secret is printed this once)`,
    positionals: ['url'],
    options: { ...JSON_OPTION, events: { type: 'string' }, author: { type: 'string' } },
  },
  'webhook list': { usage: `${COMMAND} webhook list [--json]`, positionals: [], options: JSON_OPTION },
  'webhook remove': { usage: `${COMMAND} webhook remove <id> [--json]`, positionals: ['id'], options: JSON_OPTION },
  'webhook rotate': {
    usage: `${COMMAND} webhook rotate <id> [--json]  (the new secret is printed this once; the previous ones sign 24 h more)`,
    positionals: ['id'],
    options: JSON_OPTION,
  },
  'webhook deliveries': {
    usage: `${COMMAND} webhook deliveries <id> [--json]`,
    positionals: ['id'],
    options: JSON_OPTION,
  },
  'webhook retry': {
    usage: `${COMMAND} webhook retry <id> <deliveryId> [--json]`,
    positionals: ['id', 'deliveryId'],
    options: JSON_OPTION,
  },
} as const satisfies Readonly<Record<string, CommandSpec>>;

export type CommandName = keyof typeof COMMANDS;

/**
 * True for a command of the table, and for nothing else: an own key only, so that `toString` or
 * `__proto__` is an unknown command, not something inherited from Object.prototype.
 */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

export function commandSpec(name: CommandName): CommandSpec {
  return COMMANDS[name];
}

/** The words that take a second one (`product add`, `key show`, `author token`, `webhook add`...). */
export const GROUPS = ['product', 'key', 'author', 'webhook'] as const;

export function isGroup(word: string): boolean {
  return (GROUPS as readonly string[]).includes(word);
}

/** Every command's name, in the table's order (`serve`, `keygen`, ..., `key show`, ...). */
export function commandNames(): readonly CommandName[] {
  return Object.keys(COMMANDS).filter(isCommandName);
}

/** The usage lines of a group's commands. */
export function groupUsage(group: string): string {
  const lines = Object.entries(COMMANDS)
    .filter(([name]) => name.startsWith(`${group} `))
    .map(([, spec]) => `  ${spec.usage}`);
  return `Usage:\n${lines.join('\n')}\n`;
}
