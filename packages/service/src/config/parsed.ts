/**
 * The one shape of a configuration reading (docs/protocol.md#configuration): the value, or every
 * fault found, each naming its variable. Every parser of an environment value returns it, and an
 * adapter prints each fault as one line (`configErrorLine`), so the variable is always known
 * without reading it back out of a message.
 */

/** One bad value. */
export interface ConfigError {
  /** The variable at fault (`PORT`), or what stands for it where no variable is involved. */
  readonly variable: string;
  /** What is wrong, without the variable's name; never a secret's value. */
  readonly message: string;
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly ConfigError[] };

/** A good value. */
export function parsed<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

/** One fault. */
export function invalid(variable: string, message: string): Parsed<never> {
  return { ok: false, errors: [{ variable, message }] };
}

/** The line a user reads: `PORT: expected an integer 0..65535, got "80a"`. */
export function configErrorLine(error: ConfigError): string {
  return `${error.variable}: ${error.message}`;
}

/** A variable an adapter cannot do without: unset, it is a fault of its own (`message`). */
export function required<T>(reading: Parsed<T | undefined>, variable: string, message: string): Parsed<T> {
  if (!reading.ok) return reading;
  return reading.value === undefined ? invalid(variable, message) : parsed(reading.value);
}

/**
 * Several readings as one object: its value when every reading is good, else every fault, in the
 * order of the keys (the order of docs/protocol.md#configuration's table, as the adapters list them).
 */
export function combine<T extends object>(readings: { readonly [K in keyof T]: Parsed<T[K]> }): Parsed<T> {
  const errors: ConfigError[] = [];
  const value: Partial<T> = {};
  for (const key of Object.keys(readings) as (keyof T)[]) {
    const reading = readings[key];
    if (reading.ok) value[key] = reading.value;
    else errors.push(...reading.errors);
  }
  // Every key of `readings` was read, good, into `value`: it is a whole T.
  return errors.length > 0 ? { ok: false, errors } : parsed(value as T);
}
