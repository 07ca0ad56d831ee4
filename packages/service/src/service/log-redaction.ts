import { describeError } from '@licence/core';

/**
 * What every adapter's logger (the Koa server's pino, the Lambda handler's JSON lines) redacts, as
 * the net under docs/protocol.md#privacy (no key, no signing key, no token, no webhook secret in a
 * log line in clear). The code never logs these fields; `redactLogFields` replaces each at the top
 * level and `depth` levels down, where a careless `{req: {headers}}` or `{body: {cle}}` would put
 * them. One object, so that a logger of another kind reads the whole rule in one place.
 */
export const LOG_REDACTION: {
  /** The field names redacted, wherever they stand within `depth`. */
  readonly fields: readonly string[];
  /** How many levels below the top a logger still looks for `fields`. */
  readonly depth: number;
  /** What a redacted value is replaced with. */
  readonly censor: string;
} = Object.freeze({
  fields: Object.freeze(['authorization', 'cle', 'signingKey', 'seed', 'token', 'adminToken', 'secret']),
  depth: 2,
  censor: '[redacted]',
});

/**
 * A copy of a log line's `fields` with every `LOG_REDACTION.fields` name replaced by its `censor`,
 * at the top level and `depth` levels down (an Error becomes its name, message and stack).
 * Every adapter's logger runs it: one walk over the line's own few fields, where pino's path-based
 * redaction of the same 21 paths cost about 20 µs a verdict, ten times the line itself (the Koa
 * server README's "Benchmark").
 */
export function redactLogFields(fields: object): Record<string, unknown> {
  return redactRecord(fields, 0);
}

function redact(value: unknown, depth: number): unknown {
  if (depth > LOG_REDACTION.depth || typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return describeError(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return redactRecord(value, depth);
}

function redactRecord(value: object, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    copy[name] = LOG_REDACTION.fields.includes(name) ? LOG_REDACTION.censor : redact(item, depth + 1);
  }
  return copy;
}
