/**
 * What a `catch` does with the value it caught, written once for every package (the service, the
 * stores, the adapters, the clients). A caught value is `unknown`: an Error almost always, but
 * JavaScript lets anything be thrown.
 */

/** The text of a caught value: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A caught value as an Error, for an API that takes one; anything else is wrapped. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The string `code` of a system error (`ENOENT`, `EADDRINUSE`), or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** How many causes deep `describeError` follows a chain. */
const MAX_CAUSE_DEPTH = 3;

/**
 * A caught value as the `err` field of a log line: name, message, stack and its causes. A value that
 * is not an Error is logged by its type only, never by its text (docs/protocol.md#privacy: a thrown
 * string could hold a key).
 */
export function describeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: typeof error };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  if (error.stack !== undefined) fields.stack = error.stack;
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) fields.cause = describeError(error.cause, depth + 1);
  return fields;
}
