import { Writable } from 'node:stream';
import { createLogger } from '../src/create-logger.js';
import type { LogLevel } from '../src/config.js';

/**
 * A real pino logger (the server's own, redaction included) whose JSON lines are kept in memory,
 * so a test can read what the server logged and assert that no key or token is in it.
 */
export function captureLogs(level: LogLevel = 'debug') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(line);
      callback();
    },
  });
  const logger = createLogger({ level, destination });
  return { logger, lines, destination };
}

/** Every way a licence key could be written: as issued, normalised, lower case. */
export function keySpellings(formatted: string): string[] {
  const normalised = formatted.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return [formatted, normalised, normalised.toLowerCase()];
}

/** The lines that hold any of `secrets` (expected: none). */
export function linesHolding(lines: readonly string[], secrets: readonly string[]): string[] {
  return lines.filter((line) => secrets.some((secret) => line.includes(secret)));
}
