import pino from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import type { LogLevel } from '@licence/service';

/**
 * Fields that must never reach a log line in clear (docs/protocol.md#privacy: no key, no signing
 * key, no token). The code never logs them; redaction is the net under that rule, at the top level
 * and two levels down, where a careless `{req: {headers}}` or `{body: {cle}}` would put them.
 */
export const REDACTED_FIELDS = ['authorization', 'cle', 'signingKey', 'seed', 'token', 'adminToken'] as const;

export function redactPaths(): string[] {
  return REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);
}

export interface CreateLoggerOptions {
  readonly level: LogLevel;
  /** Default: stdout, written synchronously so no line is lost when the process exits. */
  readonly destination?: DestinationStream;
}

/** JSON lines (pino) with the redaction above. */
export function createLogger(options: CreateLoggerOptions): PinoLogger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level,
      redact: { paths: redactPaths(), censor: '[redacted]' },
      // No pid and hostname: a request line is method, route, status and ms
      // (docs/protocol.md#privacy: nothing else).
      base: null,
    },
    destination,
  );
}
