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
