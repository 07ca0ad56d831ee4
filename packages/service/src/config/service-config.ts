import { type ConfigError, combine, type Parsed, parsed, required } from './parsed.js';
import { type Environment, type ServiceConfig, variableReaders } from './shared-config.js';

/**
 * The one path from the environment to the service's configuration (docs/protocol.md#configuration),
 * taken by every app: the Koa server, the Lambda API function and the scheduled webhooks function.
 * The variables they share are read by `variableReaders` (shared-config.ts), each in one place;
 * an app names those it reads, those it cannot do without, and hands in its own readings (HOST,
 * PORT...). Every fault comes back in one list, one line per bad variable.
 *
 * Pure: handed the environment and a working directory, never touching the disk.
 */

/**
 * docs/protocol.md#configuration's table, in its order (a test holds it to the table): each
 * variable, and the keys of ServiceConfig it fills; none for an app's own (the Koa server's HOST,
 * PORT...). The order is where an app's own variables' faults go among the shared ones.
 */
const CONFIGURATION_TABLE: readonly (readonly [variable: string, ...keys: (keyof ServiceConfig)[]])[] = [
  ['HOST'],
  ['PORT'],
  ['LICENCE_DATA_DIR'],
  ['DATABASE_URL', 'databaseUrl'],
  ['LICENCE_SIGNING_KEY', 'signingKey'],
  ['LICENCE_SIGNING_KEY_FILE', 'signingKey'],
  ['LICENCE_ADMIN_TOKEN', 'adminToken'],
  ['TRUST_PROXY', 'trustProxy', 'clientAddress'],
  ['LOG_LEVEL', 'logLevel', 'logLevelSet'],
  ['LICENCE_MAX_CONNECTIONS'],
  ['LICENCE_MAX_CONNECTIONS_PER_IP'],
  ['LICENCE_WEBHOOK_ALLOW_PRIVATE', 'webhookAllowPrivate'],
  ['LICENCE_WEBHOOKS_PER_AUTHOR', 'webhooksPerAuthor'],
  ['LICENCE_WEBHOOK_CONCURRENCY', 'webhookConcurrency'],
  ['LICENCE_STAGING_HOSTS', 'stagingHosts'],
  ['LICENCE_PUBLIC_URL', 'publicUrl'],
  ['LICENCE_BUYER_TRANSFERS_PER_30_DAYS', 'buyerTransfersPer30Days'],
  ['LICENCE_WORKERS'],
];

/** The table's variables, in its order. */
export const CONFIGURATION_VARIABLES: readonly string[] = CONFIGURATION_TABLE.map(([variable]) => variable);

/** Every shared variable, by the key an app names it with, in the table's order: the default of `only`. */
const SERVICE_VARIABLES: readonly (keyof ServiceConfig)[] = [
  ...new Set(CONFIGURATION_TABLE.flatMap(([, ...keys]) => keys)),
];

/** The shared variables an app may require, and the variable a fault for an unset one names. */
const REQUIRABLE = { databaseUrl: 'DATABASE_URL', signingKey: 'LICENCE_SIGNING_KEY' } as const;
export type RequirableVariable = keyof typeof REQUIRABLE;

/** Each of an app's own variables read on its own, as `combine` takes them. */
export type Readings<T> = { readonly [K in keyof T]: Parsed<T[K]> };

/** What an app reads besides: which shared variables, which of them it requires, its own. */
export interface ServiceConfigReading<
  K extends keyof ServiceConfig,
  R extends K & RequirableVariable,
  T extends object,
> {
  /**
   * The shared variables the app reads, by key; default every one. One it leaves out is not read
   * at all, so a bad value of it stops nothing (Lambda's API function delivers no webhook, and
   * reads no LICENCE_WEBHOOK_CONCURRENCY).
   */
  readonly only?: readonly K[];
  /** Those the app cannot do without, each with the message of its fault when unset. */
  readonly required?: { readonly [P in R]: string };
  /** The app's own variables, read by the app (`readVariable`). */
  readonly own?: Readings<T>;
}

/** The configuration an app gets: the shared variables it named (its required ones set), and its own. */
export type ReadServiceConfig<K extends keyof ServiceConfig, R extends keyof ServiceConfig, T> = Omit<
  Pick<ServiceConfig, K>,
  R
> & { readonly [P in R]: NonNullable<ServiceConfig[P]> } & T;

/**
 * Reads the shared variables `app.only` names (all by default) and `app.own`, into one value or
 * every fault, one per bad variable, each naming it and never a secret's value: the shared ones in
 * the order of `only` (by default, that of docs/protocol.md#configuration's table), each of the
 * app's own where the table puts it among them (`interleaved`).
 */
export function readServiceConfig<
  K extends keyof ServiceConfig = keyof ServiceConfig,
  R extends K & RequirableVariable = never,
  T extends object = Record<never, never>,
>(env: Environment, cwd: string, app: ServiceConfigReading<K, R, T> = {}): Parsed<ReadServiceConfig<K, R, T>> {
  const readers = variableReaders(env, cwd);
  const requirements: Partial<Record<RequirableVariable, string>> = app.required ?? {};
  const readings: Record<string, Parsed<unknown>> = {};
  for (const key of app.only ?? SERVICE_VARIABLES) {
    const reading: Parsed<unknown> = readers[key]();
    const message = isRequirable(key) ? requirements[key] : undefined;
    readings[key] = isRequirable(key) && message !== undefined ? required(reading, REQUIRABLE[key], message) : reading;
  }
  const shared = combine<Record<string, unknown>>(readings);
  const own = combine<Record<string, unknown>>(app.own ?? {});
  if (!shared.ok || !own.ok) {
    // A variable that fills two keys (TRUST_PROXY: trustProxy and clientAddress) is read once, so
    // its fault is one object listed under both: kept once, one line per bad variable.
    const faults = shared.ok ? [] : [...new Set(shared.errors)];
    return { ok: false, errors: interleaved(faults, own.ok ? [] : own.errors) };
  }
  // Each key of `only` was read by its own reader, a required one checked set, and each of `own`
  // by the app: the value is what the type says.
  return parsed({ ...shared.value, ...own.value } as ReadServiceConfig<K, R, T>);
}

function isRequirable(key: keyof ServiceConfig): key is RequirableVariable {
  return Object.hasOwn(REQUIRABLE, key);
}

/**
 * The shared faults in their order, each of the app's own placed before the first shared one that
 * comes after it in docs/protocol.md#configuration's table: the table's order when the shared ones
 * follow it (the Koa server's HOST and PORT first, LICENCE_WORKERS last). A variable the table
 * lacks goes last.
 */
export function interleaved(shared: readonly ConfigError[], own: readonly ConfigError[]): ConfigError[] {
  const rank = (error: ConfigError): number => {
    const index = CONFIGURATION_VARIABLES.indexOf(error.variable);
    return index === -1 ? CONFIGURATION_VARIABLES.length : index;
  };
  const merged: ConfigError[] = [];
  let next = 0;
  // Array.prototype.sort is stable: faults of one variable keep the order they were read in.
  for (const error of [...own].sort((a, b) => rank(a) - rank(b))) {
    for (let head = shared[next]; head !== undefined && rank(head) <= rank(error); head = shared[next]) {
      merged.push(head);
      next += 1;
    }
    merged.push(error);
  }
  return [...merged, ...shared.slice(next)];
}
