import { parseArgs } from 'node:util';
import { errorMessage } from '@licence/core';
import { ADMIN_OPERATIONS, type AdminOperations, type CommandAction, isMistake } from '@licence/service';
import { assertNever } from './assert-never.js';
import {
  adminCommand,
  type CommandSpec,
  commandSpec,
  groupUsage,
  isCommandName,
  isGroup,
  isOwnCommand,
  type OwnCommandName,
  usageText,
} from './cli-commands.js';
import { unknownCommandMessage, unknownOptionMessage } from './cli-suggestions.js';

/**
 * The `licence` command line (docs/protocol.md#administration), parsed with node:util `parseArgs`.
 * Pure: argv in, a command (or help text, or one usage error line) out. Admin actions carry typed
 * values (a number of sites, a trial end in seconds, a normalised key), read by the command of
 * their operation's declaration in the service's table (ADMIN_OPERATIONS), as key administration
 * takes them.
 */

/** An admin command's typed values, read by its declaration (docs/protocol.md#administration). */
export type AdminAction = CommandAction;

export type CliCommand =
  | { readonly kind: 'serve' }
  | { readonly kind: 'keygen'; readonly out?: string; readonly printSeed: boolean; readonly json: boolean }
  | { readonly kind: 'token'; readonly json: boolean }
  | { readonly kind: 'admin'; readonly action: AdminAction; readonly json: boolean }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'usage'; readonly message: string };

/** One command's arguments, read against its spec. */
interface Args {
  readonly kind: 'args';
  readonly name: string;
  readonly spec: CommandSpec;
  readonly json: boolean;
  /** A string option, or undefined when absent. */
  option(name: string): string | undefined;
  flag(name: string): boolean;
  positional(index: number): string;
  /** The positionals after the spec's fixed ones (`rest`); [] when none. */
  rest(): readonly string[];
}

export function parseCliArgs(argv: readonly string[], operations: AdminOperations = ADMIN_OPERATIONS): CliCommand {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    return { kind: 'help', text: usageText(operations) };
  }
  const grouped = isGroup(first, operations);
  if (grouped && (second === undefined || second === '--help' || second === '-h')) {
    return { kind: 'help', text: groupUsage(first, operations) };
  }
  const name = grouped ? `${first} ${second}` : first;
  if (!isCommandName(name, operations)) return usage(unknownCommandMessage(first, second, operations));
  const args = readArgs(name, commandSpec(name, operations), argv.slice(grouped ? 2 : 1));
  if (args.kind !== 'args') return args;
  return isOwnCommand(name) ? ownCommand(name, args) : adminAction(name, args, operations);
}

/** Every command of the server's own has its case: one added without one does not compile. */
function ownCommand(name: OwnCommandName, args: Args): CliCommand {
  switch (name) {
    case 'serve':
      return { kind: 'serve' };
    case 'keygen':
      return keygen(args);
    case 'token':
      return { kind: 'token', json: args.json };
    default:
      return assertNever(name);
  }
}

/** An admin command's typed values, read by its operation's declaration, or its usage mistake. */
function adminAction(name: string, args: Args, operations: AdminOperations): CliCommand {
  const read = adminCommand(name, operations)?.command.read(args);
  if (read === undefined) return usage(`${name}: no such command`);
  if (!isMistake(read)) return { kind: 'admin', action: read, json: args.json };
  return usage(read.showUsage ? `${read.mistake} (usage: ${args.spec.usage})` : read.mistake);
}

/** The options and positionals of `name`, or the usage error or help they amount to. */
function readArgs(name: string, spec: CommandSpec, rest: readonly string[]): Args | CliCommand {
  // No option is declared `multiple`, so no value is ever an array here; the type allows it.
  let values: Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: [...rest], options: spec.options, allowPositionals: true, strict: true });
    values = parsed.values;
    positionals = parsed.positionals;
  } catch (error) {
    // parseArgs' messages are long; their first sentence names the option. An unknown option
    // names the nearest declared one (cli-suggestions.ts).
    const text = errorMessage(error);
    const unknown = unknownOptionMessage(name, spec, text);
    if (unknown !== undefined) return usage(unknown);
    const message = text.split('. ')[0] ?? text;
    return usage(`${name}: ${message} (usage: ${spec.usage})`);
  }
  if (values.help === true) return { kind: 'help', text: `Usage: ${spec.usage}\n` };
  const fixed = spec.positionals.length;
  if (spec.rest === undefined ? positionals.length !== fixed : positionals.length < fixed) {
    const names = spec.positionals.map((n) => `<${n}>`).join(' ');
    const expected = fixed === 0 ? 'no argument' : spec.rest === undefined ? names : `${names} [${spec.rest} ...]`;
    return usage(`${name}: expected ${expected}, got ${positionals.length} (usage: ${spec.usage})`);
  }
  return {
    kind: 'args',
    name,
    spec,
    json: values.json === true,
    option: (option) => {
      const value = values[option];
      return typeof value === 'string' ? value : undefined;
    },
    flag: (option) => values[option] === true,
    positional: (index) => positionals[index] ?? '',
    rest: () => positionals.slice(fixed),
  };
}

function keygen(args: Args): CliCommand {
  const out = args.option('out');
  const printSeed = args.flag('print-seed');
  if (out === undefined && !printSeed) {
    return usage('keygen: give --out FILE to write a new signing key (mode 0600), or --print-seed to print it');
  }
  return { kind: 'keygen', ...(out === undefined ? {} : { out }), printSeed, json: args.json };
}

function usage(message: string): CliCommand {
  return { kind: 'usage', message };
}
