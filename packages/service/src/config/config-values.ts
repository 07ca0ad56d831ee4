import { decodeBase64, isValidationError, parseStagingList } from '@licence/core';
import { invalid, type Parsed, parsed } from './parsed.js';
import { MAX_WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY } from '../webhooks/index.js';
import { DEFAULT_WEBHOOKS_PER_AUTHOR, MAX_WEBHOOKS_PER_AUTHOR } from '../webhooks/index.js';

/**
 * Values of the environment names (docs/protocol.md#configuration) that every adapter reads alike
 * (the Koa server and the Lambda handler). Each parser takes the variable's text (trimmed, or
 * undefined when unset) and gives a `Parsed` value whose faults name the variable, never a secret's
 * value.
 */

/** LOG_LEVEL: pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * docs/protocol.md#administration: a Bearer token shorter than this is guessable
 * (LICENCE_ADMIN_TOKEN). 32 characters of a random base64 or hex string carry 192 or 128 bits.
 */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/**
 * docs/protocol.md#administration: fewer different characters than this is a repetition
 * (`aaaa...`, `abcabc...`), not a secret. A random hex token of 64 characters falls below it once in
 * about 10^12 draws; base64 tokens, far less often.
 */
export const MIN_ADMIN_TOKEN_DISTINCT = 10;

/**
 * RFC 6750 2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. A
 * token made of these can always be sent in an `Authorization: Bearer` header; one with white space
 * never can (`isAuthorized` reads the token up to the first space).
 */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/** LOG_LEVEL (default `info`; case and surrounding space ignored). */
export function parseLogLevel(raw: string | undefined): Parsed<LogLevel> {
  if (raw === undefined || raw.trim() === '') return parsed('info');
  const level = LOG_LEVELS.find((candidate) => candidate === raw.trim().toLowerCase());
  if (level !== undefined) return parsed(level);
  return invalid('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${raw.trim()}"`);
}

/** The level to log at while the configuration may still be bad: LOG_LEVEL's when good, else `info`. */
export function logLevelOrInfo(raw: string | undefined): LogLevel {
  const level = parseLogLevel(raw);
  return level.ok ? level.value : 'info';
}

/**
 * A 32-byte Ed25519 seed in canonical base64 (docs/protocol.md#signature). `variable` names it in
 * the fault, which never shows the value.
 */
export function decodeSeed(text: string, variable: string): Parsed<Uint8Array> {
  try {
    return parsed(decodeBase64(text.trim(), variable, 32));
  } catch (error) {
    if (!isValidationError(error)) throw error;
    // core's messages are `<field>: <rule>` ("expected 32 bytes, got 16"), never the value.
    const prefix = `${error.field}: `;
    const rule = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return invalid(variable, `${rule} (a base64 32-byte Ed25519 seed; \`pnpm licence keygen\` makes one)`);
  }
}

/** DATABASE_URL: a `postgres:` or `postgresql:` URL. No host is fine: libpq then uses its local socket. */
export function isPostgresUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'postgres:' || protocol === 'postgresql:';
}

/** DATABASE_URL, unset or a PostgreSQL URL. Never echoed: a database URL usually carries a password. */
export function parseDatabaseUrl(raw: string | undefined): Parsed<string | undefined> {
  if (raw === undefined || isPostgresUrl(raw)) return parsed(raw);
  return invalid('DATABASE_URL', 'expected a postgres:// or postgresql:// URL (value not shown)');
}

/**
 * The admin token rule (docs/protocol.md#administration), for LICENCE_ADMIN_TOKEN and
 * `createService`'s `adminToken` alike: what is wrong with `token`, or null when it may be used.
 * Each fault names the rule and at most a count, never the token. In this order: white space (the
 * token could never be sent, see `BEARER_TOKEN`), another character a Bearer token cannot hold, too
 * short, too repetitive.
 */
export function adminTokenFault(token: string): string | null {
  if (/\s/.test(token)) return 'holds white space, which an Authorization: Bearer header cannot carry';
  if (!BEARER_TOKEN.test(token)) {
    return 'may hold only letters, digits, - . _ ~ + / and a trailing =, as a Bearer token (RFC 6750 2.1)';
  }
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    return `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters, got ${token.length}`;
  }
  const distinct = new Set(token).size;
  if (distinct < MIN_ADMIN_TOKEN_DISTINCT) {
    return `must hold at least ${MIN_ADMIN_TOKEN_DISTINCT} different characters, got ${distinct}: too repetitive to be a secret`;
  }
  return null;
}

/** LICENCE_ADMIN_TOKEN: unset (the admin API is off) or a token `adminTokenFault` accepts; never shown. */
export function parseAdminToken(raw: string | undefined): Parsed<string | undefined> {
  if (raw === undefined) return parsed(undefined);
  const fault = adminTokenFault(raw);
  if (fault === null) return parsed(raw);
  return invalid('LICENCE_ADMIN_TOKEN', `${fault} (value not shown; \`pnpm licence token\` makes one)`);
}

/**
 * LICENCE_WEBHOOK_ALLOW_PRIVATE (docs/protocol.md#webhooks): exactly `1` lifts the destination
 * rules, `0` or unset keeps them. Anything else (`true`, `yes`) is refused rather than guessed: a
 * switch that opens the way to internal addresses is turned on only by the one spelling the docs
 * give.
 */
export function parseWebhookAllowPrivate(raw: string | undefined): Parsed<boolean> {
  if (raw === undefined || raw === '0') return parsed(false);
  if (raw === '1') return parsed(true);
  return invalid('LICENCE_WEBHOOK_ALLOW_PRIVATE', `expected 1 (on) or 0 (off), got "${raw}"`);
}

/** A whole number from `min` to `max`, digits only (no sign, no exponent, no fraction); `fallback` when unset. */
function parseWholeNumber(
  variable: string,
  raw: string | undefined,
  range: { readonly min: number; readonly max: number; readonly fallback: number },
): Parsed<number> {
  if (raw === undefined) return parsed(range.fallback);
  if (/^[0-9]{1,9}$/.test(raw) && Number(raw) >= range.min && Number(raw) <= range.max) return parsed(Number(raw));
  return invalid(variable, `expected an integer from ${range.min} to ${range.max}, got "${raw}"`);
}

/**
 * LICENCE_WEBHOOKS_PER_AUTHOR (docs/protocol.md#endpoints): the webhook endpoints one author may
 * have, 0 to 1000, default 10 (webhooks/quota.ts says why there is a quota).
 */
export function parseWebhooksPerAuthor(raw: string | undefined): Parsed<number> {
  return parseWholeNumber('LICENCE_WEBHOOKS_PER_AUTHOR', raw, {
    min: 0,
    max: MAX_WEBHOOKS_PER_AUTHOR,
    fallback: DEFAULT_WEBHOOKS_PER_AUTHOR,
  });
}

/**
 * LICENCE_WEBHOOK_CONCURRENCY (docs/protocol.md#delivery): the delivery attempts a deliverer has in
 * flight at most, 1 to 1000, default 32. Each holds a socket for up to 15 s, so this bounds the
 * descriptors receivers can make the server hold (the Koa server counts them, docs/protocol.md#limits).
 */
export function parseWebhookConcurrency(raw: string | undefined): Parsed<number> {
  return parseWholeNumber('LICENCE_WEBHOOK_CONCURRENCY', raw, {
    min: 1,
    max: MAX_WEBHOOK_CONCURRENCY,
    fallback: WEBHOOK_CONCURRENCY,
  });
}

/**
 * LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts): the operator's staging host patterns, a
 * comma-separated list read by core's rule (`parseStagingList`), beyond the built-in ones; unset is
 * none. A bad pattern stops the start with core's message, which names the pattern at fault (a host
 * pattern is no secret).
 */
export function parseStagingHosts(raw: string | undefined): Parsed<readonly string[]> {
  if (raw === undefined) return parsed([]);
  try {
    return parsed(parseStagingList('LICENCE_STAGING_HOSTS', raw));
  } catch (error) {
    if (!isValidationError(error)) throw error;
    const prefix = `${error.field}: `;
    const rule = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return invalid('LICENCE_STAGING_HOSTS', rule);
  }
}
