import pino from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { REDACTED_CENSOR, REDACTED_DEPTH, REDACTED_FIELDS } from '@licence/service';
import type { LogLevel } from '@licence/service';

/**
 * The service's redacted fields (docs/protocol.md#privacy: no key, no signing key, no token in a
 * log line) as pino paths: each at the top level and `REDACTED_DEPTH` levels down
 * (`cle`, `*.cle`, `*.*.cle`).
 */
export function redactPaths(): string[] {
  const depths = Array.from({ length: REDACTED_DEPTH + 1 }, (_unused, depth) => '*.'.repeat(depth));
  return REDACTED_FIELDS.flatMap((field) => depths.map((prefix) => `${prefix}${field}`));
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
      redact: { paths: redactPaths(), censor: REDACTED_CENSOR },
      // No pid and hostname: a request line is method, route, status and ms
      // (docs/protocol.md#privacy: nothing else).
      base: null,
    },
    destination,
  );
}
