import { errorCode } from '@licence/core';
import { hostPort } from './host-port.js';
import { StartupError } from './startup-error.js';

/**
 * A failed `listen` as the one start line of docs/protocol.md#configuration, naming the variable at
 * fault: HOST when the address is not one of this machine's or the name does not resolve, PORT when
 * the port is taken or privileged. Anything else is returned as it came.
 */

const HOST_CODES: ReadonlySet<string> = new Set([
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
]);
const PORT_CODES: ReadonlySet<string> = new Set(['EADDRINUSE', 'EACCES']);

export function listenError(error: unknown, host: string, port: number): unknown {
  const code = errorCode(error);
  const where = `cannot listen on ${hostPort(host, port)} (${code ?? ''})`;
  if (code !== undefined && HOST_CODES.has(code)) return new StartupError(`HOST: ${where}`, { cause: error });
  if (code !== undefined && PORT_CODES.has(code)) return new StartupError(`PORT: ${where}`, { cause: error });
  return error;
}
