import pino from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { redactLogFields } from '@licence/service';
import type { LogLevel } from '@licence/service';

export interface CreateLoggerOptions {
  readonly level: LogLevel;
  /** Default: stdout, written synchronously so no line is lost when the process exits. */
  readonly destination?: DestinationStream;
}

/** JSON lines (pino), with the service's redaction (`redactLogFields`) on every line. */
export function createLogger(options: CreateLoggerOptions): PinoLogger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level,
      // docs/protocol.md#privacy: the service's redacted fields, top level and two levels down.
      formatters: { log: redactLogFields },
      // No pid and hostname: a request line is method, route, status and ms
      // (docs/protocol.md#privacy: nothing else).
      base: null,
    },
    destination,
  );
}
