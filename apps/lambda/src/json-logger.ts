import { errorMessage } from '@licence/core';
import { redactLogFields } from '@licence/service';
import type { Logger, ServiceConfig } from '@licence/service';

/**
 * JSON lines on stdout, which Lambda sends to CloudWatch Logs as they are. The fields are pino's
 * (`level` as a number, `time` in ms, `msg`), so the Koa server's lines and these read alike in
 * one log tool. Not pino itself: the function logs a handful of lines per request, and a bundle
 * without pino's worker-thread transports stays small and starts faster (bundle size and
 * cold start are measured).
 *
 * The net under docs/protocol.md#privacy (no key, no signing key, no token in a log line), as the
 * Koa server's logger: the service's `LOG_REDACTION` (`redactLogFields`), its fields redacted at the
 * top level and `depth` levels down.
 */

/** LOG_LEVEL as the configuration reads it: pino's levels, plus `silent`. */
type LogLevel = ServiceConfig['logLevel'];

/** pino's numbers, so a level filter written for the Koa server's lines works here too. */
export const LEVEL_NUMBERS: Readonly<Record<Exclude<LogLevel, 'silent'>, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

export interface JsonLoggerOptions {
  readonly level: LogLevel;
  /** One complete line, without its newline. Default: stdout. */
  readonly write?: (line: string) => void;
  readonly now?: () => number;
}

export function createJsonLogger(options: JsonLoggerOptions): Logger {
  const threshold = options.level === 'silent' ? Number.POSITIVE_INFINITY : LEVEL_NUMBERS[options.level];
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const log =
    (level: number) =>
    (fields: Record<string, unknown>, message?: string): void => {
      if (level < threshold) return;
      const entry = {
        level,
        time: now(),
        ...redactLogFields(fields),
        ...(message === undefined ? {} : { msg: message }),
      };
      write(stringify(entry));
    };
  return { debug: log(20), info: log(30), warn: log(40), error: log(50) };
}

/** JSON.stringify that never throws on what a log call might carry (a BigInt, a cycle). */
function stringify(entry: Record<string, unknown>): string {
  try {
    return JSON.stringify(entry, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
  } catch (error) {
    // A cycle: keep the line, say why its fields are missing.
    return JSON.stringify({
      level: entry.level,
      time: entry.time,
      msg: entry.msg,
      logError: errorMessage(error),
    });
  }
}
