import { Writable } from 'node:stream';
import { createLogger } from '../src/create-logger.js';
import type { CreateLoggerOptions } from '../src/create-logger.js';

/**
 * A real pino logger (the server's own, redaction included) whose JSON lines are kept in memory,
 * so a test can read what the server logged and assert that no key or token is in it.
 */
export function captureLogs(level: CreateLoggerOptions['level'] = 'debug') {
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

// Looking for a secret in those lines (docs/protocol.md#privacy): shared with the Lambda suite.
export { keySpellings, linesHolding } from '@licence/http-vector-runner';
