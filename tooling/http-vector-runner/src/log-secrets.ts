/**
 * docs/protocol.md#privacy, #signature, #administration: no licence key, signing key or admin
 * token in any log line. These two helpers let a test look for every spelling of a secret in what
 * a server logged.
 */

/** Every way a licence key could be written: as issued, normalised, lower case. */
export function keySpellings(formatted: string): string[] {
  const normalised = formatted.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return [formatted, normalised, normalised.toLowerCase()];
}

/** The lines that hold any of `secrets` (expected: none). */
export function linesHolding(lines: readonly string[], secrets: readonly string[]): string[] {
  return lines.filter((line) => secrets.some((secret) => line.includes(secret)));
}

/**
 * A careless log call's fields: a secret at the top level, one and two levels down (where a
 * `{req: {headers}}` or a `{body: {cle}}` would put one), beside a key's hint, which may be logged.
 * Every logger's redaction test writes it: the Koa server's pino and the Lambda handler's JSON lines.
 */
export const CARELESS_LOG_FIELDS: Readonly<Record<string, unknown>> = {
  cle: 'ABCDE-FGHJK',
  token: 'tok-123',
  req: { headers: { authorization: 'Bearer tok-456' } },
  body: { cle: 'KLMNP' },
  config: { signingKey: 'c2VlZA==', adminToken: 'adm-789' },
  seed: 'c2VlZDI=',
  webhook: { secret: 'whsec_c2VjcmV0' },
  hint: 'HJK2',
};

/** What of `CARELESS_LOG_FIELDS` must never reach the line. */
export const CARELESS_LOG_SECRETS: readonly string[] = [
  'ABCDE',
  'tok-123',
  'tok-456',
  'KLMNP',
  'c2VlZA',
  'adm-789',
  'c2VlZDI',
  'whsec_c2VjcmV0',
];

/** What the line still says once redacted: the censored fields, and the hint as it was. */
export const REDACTED_CARELESS_FIELDS = {
  cle: '[redacted]',
  hint: 'HJK2',
  req: { headers: { authorization: '[redacted]' } },
} as const;
