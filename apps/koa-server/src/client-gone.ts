import { errorCode } from '@licence/core';
import { BodyAbortedError } from './read-body.js';

/**
 * The errors a connection gives when the client went away (reset, closed early, stopped reading):
 * not a fault of ours, so not an error line (docs/protocol.md#errors: faults are logged at
 * `error`; a departure is counted instead, connection-stats.ts).
 */
const CLIENT_GONE_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/** True when `error` only says that the client left. */
export function isClientGone(error: unknown): boolean {
  if (error instanceof BodyAbortedError) return true;
  const code = errorCode(error);
  return code !== undefined && CLIENT_GONE_CODES.has(code);
}
