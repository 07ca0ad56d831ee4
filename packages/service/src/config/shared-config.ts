import { isAbsolute, resolve } from 'node:path';
import { parseBuyerTransfers, parsePublicUrl } from './buyer-config.js';
import {
  decodeSeed,
  type LogLevel,
  parseAdminToken,
  parseDatabaseUrl,
  parseLogLevel,
  parseStagingHosts,
  parseWebhookAllowPrivate,
  parseWebhookConcurrency,
  parseWebhooksPerAuthor,
} from './config-values.js';
import { type ClientAddressRules, clientAddressRules } from './client-address.js';
import { parseTrustProxy } from './parse-trust-proxy.js';
import { invalid, type Parsed, parsed } from './parsed.js';
import type { TrustProxy } from '../http/index.js';

/**
 * The one reading of the variables every adapter shares (docs/protocol.md#configuration):
 * DATABASE_URL, LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, LICENCE_ADMIN_TOKEN, TRUST_PROXY,
 * LOG_LEVEL, the webhook variables, LICENCE_STAGING_HOSTS and the buyer links' two. Each is read
 * here and nowhere else (`variableReaders`), on its own, so that an app reads only those it uses
 * and can require one (the Lambda handler needs a database and a key) or give it a default (the
 * Koa server's SQLite file and embedded key): `readServiceConfig` (service-config.ts) is the path
 * every app takes.
 *
 * Pure: handed the environment and a working directory, never touching the disk.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable's text, trimmed; an empty one counts as unset, as `FOO=` in a compose file means "no value". */
export function readVariable(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A signing seed the environment gives (docs/protocol.md#signature). */
export type ConfiguredSigningKey =
  /** `LICENCE_SIGNING_KEY`: the 32-byte seed itself, decoded. */
  | { readonly kind: 'inline'; readonly seed: Uint8Array }
  /** `LICENCE_SIGNING_KEY_FILE`: a file holding the base64 seed, resolved against the working directory. */
  | { readonly kind: 'file'; readonly path: string };

/** The shared variables' values; undefined where unset. */
export interface SharedConfig {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string | undefined;
  readonly signingKey: ConfiguredSigningKey | undefined;
  /** Undefined: the admin API is off (docs/protocol.md#administration). */
  readonly adminToken: string | undefined;
  readonly trustProxy: TrustProxy | undefined;
  readonly logLevel: LogLevel;
}

/** The webhook variables (docs/protocol.md#webhooks), read alike by the Koa server and both Lambda functions. */
export interface WebhookConfig {
  /** LICENCE_WEBHOOK_ALLOW_PRIVATE=1: http and private destinations allowed; default false. */
  readonly webhookAllowPrivate: boolean;
  /** LICENCE_WEBHOOKS_PER_AUTHOR: the endpoints one author may have; default 10. */
  readonly webhooksPerAuthor: number;
  /** LICENCE_WEBHOOK_CONCURRENCY: the deliverer's attempts in flight at most; default 32. */
  readonly webhookConcurrency: number;
}

/** Every variable the apps share, parsed (docs/protocol.md#configuration); undefined where unset and optional. */
export interface ServiceConfig extends SharedConfig, WebhookConfig {
  /**
   * TRUST_PROXY compiled for what a server decides per connection and says at its start
   * (client-address.ts); from the one reading of `trustProxy`, whose fault it shares.
   */
  readonly clientAddress: ClientAddressRules;
  /** True when LOG_LEVEL was given (the Koa CLI's admin commands log at `warn` otherwise). */
  readonly logLevelSet: boolean;
  /**
   * LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts): the operator's staging host patterns,
   * normalised; [] when unset.
   */
  readonly stagingHosts: readonly string[];
  /**
   * LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links): where buyers reach the service, normalised
   * (no trailing `/`); undefined: buyer links are built from each admin request's Host.
   */
  readonly publicUrl: string | undefined;
  /** LICENCE_BUYER_TRANSFERS_PER_30_DAYS (docs/protocol.md#buyer-links); undefined: the default, 3. */
  readonly buyerTransfersPer30Days: number | undefined;
}

/** How each shared variable is read, not yet read: an app reads only those it names. */
export type VariableReaders = { readonly [K in keyof ServiceConfig]: () => Parsed<ServiceConfig[K]> };

/**
 * The one place each shared variable is read (docs/protocol.md#configuration: its default, what
 * it accepts and the fault that names it all come from its parser).
 */
export function variableReaders(env: Environment, cwd: string): VariableReaders {
  return { ...plainReaders(env), signingKey: () => parseSigningKey(env, cwd) };
}

/** The readers that need no working directory: all but the signing key's. */
function plainReaders(env: Environment): Omit<VariableReaders, 'signingKey'> {
  // Read once: its value and whether it was given at all.
  const logLevel = readVariable(env, 'LOG_LEVEL');
  // Read once, when first asked: both its keys share the value, and a bad one's fault (reported once).
  let trustProxy: Parsed<TrustProxy | undefined> | undefined;
  const readTrustProxy = () => (trustProxy ??= parseTrustProxy(readVariable(env, 'TRUST_PROXY')));
  return {
    databaseUrl: () => parseDatabaseUrl(readVariable(env, 'DATABASE_URL')),
    adminToken: () => parseAdminToken(readVariable(env, 'LICENCE_ADMIN_TOKEN')),
    trustProxy: readTrustProxy,
    clientAddress: () => {
      const read = readTrustProxy();
      return read.ok ? parsed(clientAddressRules(read.value)) : read;
    },
    logLevel: () => parseLogLevel(logLevel),
    logLevelSet: () => parsed(logLevel !== undefined),
    webhookAllowPrivate: () => parseWebhookAllowPrivate(readVariable(env, 'LICENCE_WEBHOOK_ALLOW_PRIVATE')),
    webhooksPerAuthor: () => parseWebhooksPerAuthor(readVariable(env, 'LICENCE_WEBHOOKS_PER_AUTHOR')),
    webhookConcurrency: () => parseWebhookConcurrency(readVariable(env, 'LICENCE_WEBHOOK_CONCURRENCY')),
    stagingHosts: () => parseStagingHosts(readVariable(env, 'LICENCE_STAGING_HOSTS')),
    publicUrl: () => parsePublicUrl(readVariable(env, 'LICENCE_PUBLIC_URL')),
    buyerTransfersPer30Days: () => parseBuyerTransfers(readVariable(env, 'LICENCE_BUYER_TRANSFERS_PER_30_DAYS')),
  };
}

/** LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both; undefined when neither is set. */
export function parseSigningKey(env: Environment, cwd: string): Parsed<ConfiguredSigningKey | undefined> {
  const inline = readVariable(env, 'LICENCE_SIGNING_KEY');
  const file = readVariable(env, 'LICENCE_SIGNING_KEY_FILE');
  if (inline !== undefined && file !== undefined) {
    return invalid('LICENCE_SIGNING_KEY', 'set either LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both');
  }
  if (inline !== undefined) {
    const seed = decodeSeed(inline, 'LICENCE_SIGNING_KEY');
    return seed.ok ? parsed({ kind: 'inline', seed: seed.value }) : seed;
  }
  if (file === undefined) return parsed(undefined);
  if (file.includes('\0')) return invalid('LICENCE_SIGNING_KEY_FILE', 'holds a NUL character');
  return parsed({ kind: 'file', path: absolutePath(file, cwd) });
}

/** `path` as given when absolute, else against `cwd`. */
export function absolutePath(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
