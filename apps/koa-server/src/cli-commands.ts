import type { ParseArgsConfig } from 'node:util';
import { ADMIN_OPERATIONS, type AdminCommand, type AdminOperations, WEBHOOK_EVENT_TYPES } from '@licence/service';

/**
 * The commands of the `licence` command line (docs/protocol.md#administration): each name, its
 * usage line and its options. The server's own (`serve`, `keygen`, `token`) are written here; the
 * admin commands are the `command` of each operation of the service's table (ADMIN_OPERATIONS),
 * so an operation declared there is a command here, with its help line, without a line of this
 * app.
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

/** The whole `--help`, the admin commands' lines from `operations`. */
export function usageText(operations: AdminOperations = ADMIN_OPERATIONS): string {
  return `licence: the licence verification service and its administration

Usage (from the repository root; \`pnpm -s licence\` keeps pnpm's own lines out of the output):
  ${SERVE_COMMAND}           start the HTTP service (embedded SQLite default);
                                                       node itself, so that SIGTERM reaches the server
  ${COMMAND} keygen --out FILE | --print-seed        make a new Ed25519 signing key, print its public key
  ${COMMAND} token                                   print a new admin token for LICENCE_ADMIN_TOKEN
${adminHelp(operations)}
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
}

export interface CommandSpec {
  readonly usage: string;
  readonly positionals: readonly string[];
  /** The name of the any-number positionals that may follow `positionals` (`pattern ...`); none when absent. */
  readonly rest?: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
}

const JSON_OPTION = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** The server's own commands; every other one is an admin operation's. */
const OWN_COMMANDS = {
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
} as const satisfies Readonly<Record<string, CommandSpec>>;

export type OwnCommandName = keyof typeof OWN_COMMANDS;

/** An admin command and the operation it stands for. */
export interface FoundCommand {
  /** The operation's name in the table (`issueKey`). */
  readonly operation: string;
  readonly command: AdminCommand;
  /** It signs with the service's key (docs/protocol.md#buyer-links). */
  readonly signs: boolean;
}

/** The admin command called `name` (`key issue`) in `operations`, or undefined. */
export function adminCommand(name: string, operations: AdminOperations = ADMIN_OPERATIONS): FoundCommand | undefined {
  for (const [operation, declared] of Object.entries(operations)) {
    if (declared.command?.name === name)
      return { operation, command: declared.command, signs: declared.signs === true };
  }
  return undefined;
}

/**
 * True for a command of the server's own, and for nothing else: an own key only, so that
 * `toString` or `__proto__` is an unknown command, not something inherited from Object.prototype.
 */
export function isOwnCommand(name: string): name is OwnCommandName {
  return Object.hasOwn(OWN_COMMANDS, name);
}

export function isCommandName(name: string, operations: AdminOperations = ADMIN_OPERATIONS): boolean {
  return isOwnCommand(name) || adminCommand(name, operations) !== undefined;
}

/** An admin command's spec: its usage after the program's name, `--json`, `--help` and its options. */
function adminSpec(command: AdminCommand): CommandSpec {
  const options = Object.fromEntries((command.options ?? []).map((name) => [name, { type: 'string' as const }]));
  return {
    usage: `${COMMAND} ${command.usage}`,
    positionals: command.positionals,
    ...(command.rest === undefined ? {} : { rest: command.rest }),
    options: { ...JSON_OPTION, ...options },
  };
}

export function commandSpec(name: string, operations: AdminOperations = ADMIN_OPERATIONS): CommandSpec {
  if (isOwnCommand(name)) return OWN_COMMANDS[name];
  const found = adminCommand(name, operations);
  if (found === undefined) throw new TypeError(`no command ${name}`);
  return adminSpec(found.command);
}

/** Every command's name: the server's own, then the admin commands in the table's order. */
export function commandNames(operations: AdminOperations = ADMIN_OPERATIONS): readonly string[] {
  const admin = Object.values(operations).flatMap((declared) =>
    declared.command === undefined ? [] : [declared.command.name],
  );
  return [...Object.keys(OWN_COMMANDS), ...admin];
}

/** The words that take a second one (`product add`, `key show`, `author token`, `webhook add`...). */
export function groups(operations: AdminOperations = ADMIN_OPERATIONS): readonly string[] {
  const firsts = commandNames(operations).flatMap((name) => (name.includes(' ') ? [name.split(' ')[0] ?? ''] : []));
  return [...new Set(firsts)];
}

export function isGroup(word: string, operations: AdminOperations = ADMIN_OPERATIONS): boolean {
  return groups(operations).includes(word);
}

/** The usage lines of a group's commands. */
export function groupUsage(group: string, operations: AdminOperations = ADMIN_OPERATIONS): string {
  const lines = commandNames(operations)
    .filter((name) => name.startsWith(`${group} `))
    .map((name) => `  ${commandSpec(name, operations).usage}`);
  return `Usage:\n${lines.join('\n')}\n`;
}

/** Where a help line's note starts; a longer line has its note on the next line, at that column. */
const NOTE_COLUMN = 40;

/** The `--help` lines of the admin commands, in the table's order. */
function adminHelp(operations: AdminOperations): string {
  return Object.values(operations)
    .flatMap(({ command }) => (command === undefined ? [] : [helpLine(command)]))
    .join('');
}

function helpLine({ help, helpNote }: AdminCommand): string {
  const start = `  ${COMMAND} `;
  if (helpNote === undefined) return `${start}${help}\n`;
  if (help.length < NOTE_COLUMN) return `${start}${help.padEnd(NOTE_COLUMN)}${helpNote}\n`;
  return `${start}${help}\n${' '.repeat(start.length + NOTE_COLUMN)}${helpNote}\n`;
}

/** The whole `--help` of the service's own table. */
export const USAGE = usageText();
