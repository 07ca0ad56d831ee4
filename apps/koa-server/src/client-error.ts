import type { Duplex } from 'node:stream';
import { problemResponse } from '@licence/service';
import type { Logger } from '@licence/service';

/**
 * Requests Node cannot even parse (broken HTTP, headers too large, too slow) never reach Koa.
 * Node would answer them with an empty text answer; docs/protocol.md#errors wants problem+json on
 * every error, so they get one here, written straight on the socket (RFC 9112: the connection then
 * closes).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  logger.debug({ code: error.code ?? 'unknown' }, 'unparsable HTTP request');
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, title] = clientErrorStatus(error.code);
  // 431 has its own problem type (RFC 6585 5); every other parser refusal is a bad request.
  const { headers, body } =
    status === 431
      ? problemResponse('headers-too-large', 'the request headers exceed the server limit')
      : problemResponse(
          'invalid-request',
          'the request is not valid HTTP/1.1 or exceeds the server limits',
          {},
          status,
        );
  const head = [
    `HTTP/1.1 ${status} ${title}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Status and RFC 9110 reason phrase for Node's parser error codes. */
export function clientErrorStatus(code: string | undefined): readonly [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout'];
  return [400, 'Bad Request'];
}
