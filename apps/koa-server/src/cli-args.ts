import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { KEY_KINDS, normalizeKey, isValidationError } from '@licence/core';
import type { KeyKind } from '@licence/core';

/**
 * The `licence` command line (docs/protocol.md#administration), parsed with node:util `parseArgs`.
 * Pure: argv in, a command (or help text, or one usage error line) out.
 */

export type AdminAction =
  | { readonly name: 'product add'; readonly id: string; readonly author: string; readonly productName: string }
  | {
      readonly name: 'key issue';
      readonly produit: string;
      readonly kind: KeyKind;
      readonly sites?: number;
      readonly expire?: string;
    }
  | { readonly name: 'key show'; readonly cle: string }
  | { readonly name: 'key regenerate'; readonly cle: string }
  | { readonly name: 'key transfer'; readonly cle: string; readonly from?: string; readonly to?: string }
  | { readonly name: 'key revoke'; readonly cle: string; readonly reason?: string }
  | { readonly name: 'installations'; readonly produit: string }
  | { readonly name: 'purge' };

export type CliCommand =
  | { readonly kind: 'serve' }
  | { readonly kind: 'keygen'; readonly out?: string; readonly printSeed: boolean; readonly json: boolean }
  | { readonly kind: 'admin'; readonly action: AdminAction; readonly json: boolean }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'usage'; readonly message: string };

/**
 * How the command is typed in a clone of the repository: the root package.json's `licence` script
 * (docs/protocol.md#administration). `node apps/koa-server/bin/licence.mjs` is the same program.
 */
export const COMMAND = 'pnpm licence';

export const USAGE = `licence: the licence verification service and its administration

Usage (from the repository root; \`pnpm -s licence\` keeps pnpm's header out of --json output):
  ${COMMAND} serve                                   start the HTTP service (embedded SQLite default)
  ${COMMAND} keygen --out FILE | --print-seed        make a new Ed25519 signing key, print its public key
  ${COMMAND} product add <id> --author <a> --name <n>
  ${COMMAND} key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601]
  ${COMMAND} key show <cle>
  ${COMMAND} key regenerate <cle>
  ${COMMAND} key transfer <cle> [--from <host>] [--to <host>]
  ${COMMAND} key revoke <cle> [--reason <text>]
  ${COMMAND} installations <produit>
  ${COMMAND} purge                                   erase client IPs older than twelve months

Options:
  --json        print the result as JSON (every command that prints data)
  -h, --help    this help; \`${COMMAND} <command> --help\` for one command

Environment (docs/protocol.md#configuration): HOST, PORT, LICENCE_DATA_DIR, DATABASE_URL,
LICENCE_SIGNING_KEY, LICENCE_SIGNING_KEY_FILE, LICENCE_ADMIN_TOKEN, TRUST_PROXY, LOG_LEVEL.
Admin commands work on the store of LICENCE_DATA_DIR (default ./data) directly: no token needed.
Exit codes: 0 done, 1 error, 2 usage.
`;

interface CommandSpec {
  readonly usage: string;
  readonly positionals: readonly string[];
  readonly options: NonNullable<ParseArgsConfig['options']>;
}

const JSON_OPTION = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  serve: { usage: `${COMMAND} serve`, positionals: [], options: { help: JSON_OPTION.help } },
  keygen: {
    usage: `${COMMAND} keygen [--out FILE] [--print-seed] [--json]  (writes FILE with mode 0600, never over an existing file)`,
    positionals: [],
    options: { ...JSON_OPTION, out: { type: 'string' }, 'print-seed': { type: 'boolean' } },
  },
  'product add': {
    usage: `${COMMAND} product add <id> --author <author> --name <name> [--json]`,
    positionals: ['id'],
    options: { ...JSON_OPTION, author: { type: 'string' }, name: { type: 'string' } },
  },
  'key issue': {
    usage: `${COMMAND} key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601] [--json]`,
    positionals: [],
    options: {
      ...JSON_OPTION,
      produit: { type: 'string' },
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
  installations: {
    usage: `${COMMAND} installations <produit> [--json]`,
    positionals: ['produit'],
    options: JSON_OPTION,
  },
  purge: { usage: `${COMMAND} purge [--json]`, positionals: [], options: JSON_OPTION },
};

const GROUPS = new Set(['product', 'key']);

export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    return { kind: 'help', text: USAGE };
  }
  let name = first;
  let rest = argv.slice(1);
  if (GROUPS.has(first)) {
    if (second === undefined || second === '--help' || second === '-h') {
      const sub = Object.entries(COMMANDS)
        .filter(([key]) => key.startsWith(`${first} `))
        .map(([, spec]) => `  ${spec.usage}`);
      return { kind: 'help', text: `Usage:\n${sub.join('\n')}\n` };
    }
    name = `${first} ${second}`;
    rest = argv.slice(2);
  }
  const spec = COMMANDS[name];
  if (spec === undefined) return usage(`unknown command "${name}"; run \`${COMMAND} --help\``);

  // No option is declared `multiple`, so no value is ever an array here; the type allows it.
  let values: Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: [...rest], options: spec.options, allowPositionals: true, strict: true });
    values = parsed.values;
    positionals = parsed.positionals;
  } catch (error) {
    // parseArgs' messages are long; their first sentence names the option.
    const message = error instanceof Error ? (error.message.split('. ')[0] ?? error.message) : String(error);
    return usage(`${name}: ${message} (usage: ${spec.usage})`);
  }
  if (values.help === true) return { kind: 'help', text: `Usage: ${spec.usage}\n` };
  if (positionals.length !== spec.positionals.length) {
    return usage(
      `${name}: expected ${describePositionals(spec.positionals)}, got ${positionals.length} (usage: ${spec.usage})`,
    );
  }
  const json = values.json === true;
  const str = (key: string): string | undefined => {
    const value = values[key];
    return typeof value === 'string' ? value : undefined;
  };
  const positional = (index: number): string => positionals[index] ?? '';

  switch (name) {
    case 'serve':
      return { kind: 'serve' };
    case 'keygen': {
      const out = str('out');
      const printSeed = values['print-seed'] === true;
      if (out === undefined && !printSeed) {
        return usage('keygen: give --out FILE to write a new signing key (mode 0600), or --print-seed to print it');
      }
      return { kind: 'keygen', ...(out === undefined ? {} : { out }), printSeed, json };
    }
    case 'product add': {
      const author = str('author');
      const productName = str('name');
      if (author === undefined || productName === undefined) {
        return usage(`product add: --author and --name are required (usage: ${spec.usage})`);
      }
      return admin({ name, id: positional(0), author, productName }, json);
    }
    case 'key issue': {
      const produit = str('produit');
      const kind = str('kind');
      if (produit === undefined) return usage(`key issue: --produit is required (usage: ${spec.usage})`);
      const keyKind = KEY_KINDS.find((candidate) => candidate === kind);
      if (keyKind === undefined) {
        return usage(
          `key issue: --kind must be one of ${KEY_KINDS.join(', ')}${kind === undefined ? '' : `, got "${kind}"`}`,
        );
      }
      const sitesText = str('sites');
      let sites: number | undefined;
      if (sitesText !== undefined) {
        if (!/^[0-9]{1,6}$/.test(sitesText))
          return usage(`key issue: --sites must be a whole number, got "${sitesText}"`);
        sites = Number(sitesText);
      }
      const expire = str('expire');
      return admin(
        {
          name,
          produit,
          kind: keyKind,
          ...(sites === undefined ? {} : { sites }),
          ...(expire === undefined ? {} : { expire }),
        },
        json,
      );
    }
    case 'key show':
    case 'key regenerate': {
      const cle = cliKey(positional(0));
      if (typeof cle !== 'string') return cle;
      return admin({ name, cle }, json);
    }
    case 'key transfer': {
      const cle = cliKey(positional(0));
      if (typeof cle !== 'string') return cle;
      const from = str('from');
      const to = str('to');
      return admin({ name, cle, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }, json);
    }
    case 'key revoke': {
      const cle = cliKey(positional(0));
      if (typeof cle !== 'string') return cle;
      const reason = str('reason');
      return admin({ name, cle, ...(reason === undefined ? {} : { reason }) }, json);
    }
    case 'installations':
      return admin({ name, produit: positional(0) }, json);
    default:
      return admin({ name: 'purge' }, json);
  }
}

/**
 * The key as the service will read it (docs/protocol.md#key-normalisation); a bad one is a usage
 * error that never echoes it.
 */
function cliKey(raw: string): string | CliCommand {
  try {
    return normalizeKey(raw);
  } catch (error) {
    if (isValidationError(error)) return usage(error.message);
    throw error;
  }
}

function describePositionals(names: readonly string[]): string {
  return names.length === 0 ? 'no argument' : names.map((n) => `<${n}>`).join(' ');
}

function usage(message: string): CliCommand {
  return { kind: 'usage', message };
}

function admin(action: AdminAction, json: boolean): CliCommand {
  return { kind: 'admin', action, json };
}
