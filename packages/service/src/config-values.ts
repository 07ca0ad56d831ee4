import { decodeBase64, isValidationError } from '@licence/core';

/**
 * Values of the environment names (docs/protocol.md#configuration) that every adapter reads alike
 * (the Koa server and the Lambda handler). Each bad value gives one line naming the variable, never
 * a secret's value.
 */

/** LOG_LEVEL: pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * docs/protocol.md#administration: a Bearer token shorter than this is guessable
 * (LICENCE_ADMIN_TOKEN).
 */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** LOG_LEVEL (default `info`; case and surrounding space ignored), or the error line. */
export function parseLogLevel(raw: string | undefined): LogLevel | { readonly error: string } {
  if (raw === undefined || raw.trim() === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw.trim().toLowerCase());
  return level ?? { error: `LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${raw.trim()}"` };
}

/**
 * A 32-byte Ed25519 seed in canonical base64 (docs/protocol.md#signature), or the error line (no
 * value shown).
 */
export function decodeSeed(text: string, name: string): Uint8Array | string {
  try {
    return decodeBase64(text.trim(), name, 32);
  } catch (error) {
    // core's messages name the field and the rule, never the value ("expected 32 bytes, got 16").
    if (isValidationError(error))
      return `${error.message} (a base64 32-byte Ed25519 seed; \`pnpm licence keygen\` makes one)`;
    throw error;
  }
}

/** DATABASE_URL: a `postgres:` or `postgresql:` URL. No host is fine: libpq then uses its local socket. */
export function isPostgresUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'postgres:' || protocol === 'postgresql:';
}
