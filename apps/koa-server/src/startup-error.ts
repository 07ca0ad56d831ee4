import { asError } from '@licence/core';

/**
 * A problem that stops the start or a CLI command: printed as ONE line on stderr, exit code 1
 * (docs/protocol.md#configuration: a bad value stops the start with one clear line naming the
 * variable). Its message never holds a secret's value.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** What the one stderr line of a failed command or start says, after `licence: `. */
export function errorText(error: unknown): string {
  if (error instanceof StartupError) return error.message;
  const { name, message } = asError(error);
  return `unexpected ${name}: ${message}`;
}
