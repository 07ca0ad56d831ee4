import pino from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { redactLogFields } from '@licence/service';
import type { ServiceConfig } from '@licence/service';

export interface CreateLoggerOptions {
  /** LOG_LEVEL as the configuration reads it: pino's levels, plus `silent`. */
  readonly level: ServiceConfig['logLevel'];
  /** Default: stdout, written synchronously so no line is lost when the process exits. */
  readonly destination?: DestinationStream;
}

/** JSON lines (pino), with the service's redaction (`redactLogFields`) on every line. */
export function createLogger(options: CreateLoggerOptions): PinoLogger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level,
      // docs/protocol.md#privacy: the service's LOG_REDACTION, top level and two levels down.
      formatters: { log: redactLogFields },
      // No pid and hostname: a request line is method, route, status and ms
      // (docs/protocol.md#privacy: nothing else).
      base: null,
    },
    destination,
  );
}
