import { decodeBase64, isValidationError } from '@licence/core';
import { invalid, type Parsed, parsed } from './parsed.js';

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
 * (LICENCE_ADMIN_TOKEN).
 */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

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

/** LICENCE_ADMIN_TOKEN: unset (the admin API is off) or long enough; its length is shown, never it. */
export function parseAdminToken(raw: string | undefined): Parsed<string | undefined> {
  if (raw === undefined || raw.length >= MIN_ADMIN_TOKEN_LENGTH) return parsed(raw);
  return invalid(
    'LICENCE_ADMIN_TOKEN',
    `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters, got ${raw.length} (value not shown)`,
  );
}
