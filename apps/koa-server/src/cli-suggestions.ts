import { ADMIN_OPERATIONS, type AdminOperations } from '@licence/service';
import { COMMAND, type CommandSpec, commandNames, groups, isCommandName, isGroup } from './cli-commands.js';
import { nearestWord } from './nearest-word.js';

/**
 * "Did you mean" for the `licence` command line (docs/protocol.md#the-licence-cli): a mistyped
 * command or option is still one usage line (exit 2), now naming the nearest known one. Only a
 * suggestion: nothing is ever run in its place (a name that is no command never reaches one, least
 * of all `purge`).
 */

/** Words up to this long are repeated in the message; a longer one may be a pasted key or token. */
const REPEATED_UP_TO = 24;

/** The line for a command line whose first word (and second, after a group word) names no command. */
export function unknownCommandMessage(
  first: string,
  second: string | undefined,
  operations: AdminOperations = ADMIN_OPERATIONS,
): string {
  const typed = isGroup(first, operations) && second !== undefined ? `${first} ${second}` : first;
  const shown =
    typed.length <= REPEATED_UP_TO
      ? `unknown command "${typed}"`
      : `unknown command (a word of ${typed.length} characters, not repeated here)`;
  const suggestion = suggestCommand(first, second, operations);
  const help = `run \`${COMMAND} --help\``;
  return suggestion === undefined ? `${shown}; ${help}` : `${shown}; did you mean "${suggestion}"? (${help})`;
}

/** The nearest command: within the group when the first word is one, else across the first words. */
function suggestCommand(first: string, second: string | undefined, operations: AdminOperations): string | undefined {
  if (isGroup(first, operations)) {
    const inGroup = commandNames(operations)
      .filter((name) => name.startsWith(`${first} `))
      .map((name) => name.slice(first.length + 1));
    const nearest = second === undefined ? undefined : nearestWord(second, inGroup);
    return nearest === undefined ? undefined : `${first} ${nearest}`;
  }
  const firstWords = [...commandNames(operations).filter((name) => !name.includes(' ')), ...groups(operations), 'help'];
  const nearest = nearestWord(first, firstWords);
  if (nearest === undefined) return undefined;
  // `kye show`: the group's command itself, when the second word completes it.
  const whole = `${nearest} ${second ?? ''}`;
  return isGroup(nearest, operations) && isCommandName(whole, operations) ? whole : nearest;
}

/**
 * The line for an option `spec` does not declare, from node:util parseArgs' error message
 * ("Unknown option '--prodiut'. To specify a positional argument ..."), or undefined when the
 * message is not that one.
 */
export function unknownOptionMessage(name: string, spec: CommandSpec, parseError: string): string | undefined {
  const option = /^Unknown option '(-{1,2}[^'=]+)'/.exec(parseError)?.[1];
  if (option === undefined) return undefined;
  const known = Object.keys(spec.options).map((declared) => `--${declared}`);
  const nearest = nearestWord(option, known);
  const hint = nearest === undefined ? '' : `; did you mean ${nearest}?`;
  return `${name}: unknown option ${option}${hint} (usage: ${spec.usage})`;
}
