import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemResponse } from '@licence/service';
import type { Logger, ServiceResponse } from '@licence/service';
import { isClientGone } from './client-gone.js';
import type { ConnectionStats } from './connection-stats.js';

/**
 * Answers written straight on a socket, where no HTTP response object exists: requests Node cannot
 * even parse (broken HTTP, headers too large, too slow), CONNECT, and connections refused by a cap.
 * Node would answer the first with an empty text answer and the others with nothing;
 * docs/protocol.md#errors wants problem+json on every error, so they get the service's problem,
 * and the connection closes (RFC 9112 9.6).
 */

/** How long a socket stays open after its answer for the client to read it before it is closed. */
export const LINGER_MS = 1000;

/** A whole HTTP/1.1 answer: status line, the service's headers, Content-Length, Connection: close, body. */
export function rawAnswer(response: ServiceResponse): string {
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(response.body)}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${response.body}`;
}

/**
 * Writes `response` and closes the connection: the write side at once, the socket when the client
 * closes its side or after `lingerMs`. What the client still sends meanwhile is read and dropped:
 * closing a socket with unread bytes would send a reset, which can destroy the answer before the
 * client reads it.
 */
export function answerAndClose(socket: Duplex, response: ServiceResponse, lingerMs: number = LINGER_MS): void {
  // A reset while answering is the client's business; the socket is closed either way.
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  socket.end(rawAnswer(response));
  socket.resume();
}

/** The server's 'clientError' listener: a problem+json answer, or just a close for a client already gone. */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  logger: Logger,
  stats?: ConnectionStats,
): void {
  const gone = isClientGone(error);
  if (gone || !socket.writable) {
    if (gone) stats?.clientAborted(socket);
    socket.destroy();
    return;
  }
  const response = clientErrorResponse(error.code);
  if (response.status === 408) stats?.timedOut(socket);
  logger.debug(
    { code: error.code ?? 'unknown' },
    response.status === 408 ? 'request timed out' : 'unparsable HTTP request',
  );
  answerAndClose(socket, response);
}

/**
 * The problem for one of Node's parser error codes: 431 has its own problem type (RFC 6585 5), a
 * request too slow to arrive is a 408 (RFC 9110 15.5.9), every other refusal a bad request.
 */
export function clientErrorResponse(code: string | undefined): ServiceResponse {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return problemResponse('headers-too-large', 'the request headers exceed the server limit');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return problemResponse('invalid-request', 'the request did not arrive in time', {}, 408);
  }
  return problemResponse('invalid-request', 'the request is not valid HTTP/1.1 or exceeds the server limits');
}

/**
 * The server's 'connect' listener: this server is no proxy, so CONNECT gets a 405 (the target of
 * a CONNECT is a tunnel, not one of our resources: an empty Allow, RFC 9110 10.2.1).
 */
export function answerConnect(socket: Duplex): void {
  answerAndClose(
    socket,
    problemResponse('method-not-allowed', 'CONNECT is not offered: this server is not a proxy', { Allow: '' }),
  );
}
