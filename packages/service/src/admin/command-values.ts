import { type CommandAction, type CommandArguments, type CommandMistake, mistake } from './operation.js';
import { readKeyArgument } from './command-key-argument.js';

/**
 * What the `licence` commands of several operations read alike (docs/protocol.md#the-licence-cli):
 * optional options left out of the typed values when absent, and the key argument.
 */

/** `{[name]: value}` when the option was given, else `{}`: absent stays absent, as the JSON API's. */
export function given<Name extends string>(name: Name, value: string | undefined): { readonly [K in Name]?: string } {
  return value === undefined ? {} : ({ [name]: value } as { readonly [K in Name]?: string });
}

/** The options named, those given, by the same names. */
export function givenOptions<Name extends string>(
  args: CommandArguments,
  names: readonly Name[],
): { readonly [K in Name]?: string } {
  return Object.assign({}, ...names.map((name) => given(name, args.option(name))));
}

/**
 * The first positional as the service will read a key (docs/protocol.md#key-normalisation), handed
 * to `action`; an argument that cannot be a key is a usage mistake that never echoes a key
 * (command-key-argument.ts).
 */
export function withKey<Action extends CommandAction>(
  command: string,
  args: CommandArguments,
  action: (cle: string) => Action,
): Action | CommandMistake {
  const key = readKeyArgument(command, args.positional(0));
  return key.ok ? action(key.cle) : mistake(key.message);
}
