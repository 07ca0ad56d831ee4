import { describeError } from '@licence/core';

/**
 * Fields that must never reach a log line in clear (docs/protocol.md#privacy: no key, no signing
 * key, no token, no webhook secret). The code never logs them; every adapter's logger (the Koa server's pino, the
 * Lambda handler's JSON lines) redacts them as the net under that rule, at the top level and
 * `REDACTED_DEPTH` levels down, where a careless `{req: {headers}}` or `{body: {cle}}` would put
 * them.
 */
export const REDACTED_FIELDS: readonly string[] = [
  'authorization',
  'cle',
  'signingKey',
  'seed',
  'token',
  'adminToken',
  'secret',
];

/** How many levels below the top a logger still looks for `REDACTED_FIELDS`. */
export const REDACTED_DEPTH = 2;

/** What a redacted value is replaced with. */
export const REDACTED_CENSOR = '[redacted]';

/**
 * A copy of a log line's `fields` with every `REDACTED_FIELDS` name replaced by `REDACTED_CENSOR`,
 * at the top level and `REDACTED_DEPTH` levels down (an Error becomes its name, message and stack).
 * Every adapter's logger runs it: one walk over the line's own few fields, where pino's path-based
 * redaction of the same 21 paths cost about 20 µs a verdict, ten times the line itself (the Koa
 * server README's "Benchmark").
 */
export function redactLogFields(fields: object): Record<string, unknown> {
  return redactRecord(fields, 0);
}

function redact(value: unknown, depth: number): unknown {
  if (depth > REDACTED_DEPTH || typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return describeError(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return redactRecord(value, depth);
}

function redactRecord(value: object, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    copy[name] = REDACTED_FIELDS.includes(name) ? REDACTED_CENSOR : redact(item, depth + 1);
  }
  return copy;
}
