import { Duplex } from 'node:stream';
import { problemResponse } from '@licence/service';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { answerClientError, answerConnect, clientErrorResponse, rawAnswer } from './client-error.js';
import { createConnectionStats } from './connection-stats.js';

/** A socket stand-in: what the server writes is kept apart from what it reads (nothing here). */
class FakeSocket extends Duplex {
  readonly chunks: Buffer[] = [];
  override _read(): void {
    // The client sends nothing.
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk);
    callback();
  }
}

/** What was written on the socket: the head's lines and the parsed body. */
function written(socket: FakeSocket): { lines: string[]; body: unknown } {
  const [head = '', body = ''] = Buffer.concat(socket.chunks).toString().split('\r\n\r\n');
  return { lines: head.split('\r\n'), body: JSON.parse(body) };
}

describe('rawAnswer', () => {
  it("writes the service's problem with its RFC 9110 reason phrase, Content-Length and Connection: close", () => {
    const response = problemResponse('rate-limited', 'slow down', { 'Retry-After': '1' });
    const text = rawAnswer(response);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 429 Too Many Requests',
      // The service's problem builder's order (RFC 9110 5.3: the order of different fields is not significant).
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Content-Type: application/problem+json',
      'Retry-After: 1',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]);
    expect(body).toBe(response.body);
  });
});

describe('clientErrorResponse', () => {
  it('maps Node parser errors to 431, 408 and 400 problems', () => {
    expect(clientErrorResponse('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT').status).toBe(408);
    expect(clientErrorResponse('HPE_INVALID_METHOD').status).toBe(400);
    expect(clientErrorResponse(undefined).status).toBe(400);
  });
});

describe('answerClientError', () => {
  it('writes a complete problem+json answer and ends the connection', () => {
    const socket = new FakeSocket();
    const { logger } = captureLogs();
    answerClientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), socket, logger);
    const { lines, body } = written(socket);
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(lines).toContain('Content-Type: application/problem+json');
    expect(lines).toContain('Connection: close');
    expect(body).toEqual({
      type: 'https://licence.dev/problems/invalid-request',
      title: 'Invalid request',
      status: 400,
      detail: 'the request is not valid HTTP/1.1 or exceeds the server limits',
    });
    expect(socket.writableEnded).toBe(true);
  });

  it('answers headers too large with a 431 of its own problem type', () => {
    const socket = new FakeSocket();
    const { logger } = captureLogs();
    answerClientError(Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket, logger);
    const { lines, body } = written(socket);
    expect(lines[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(body).toEqual({
      type: 'https://licence.dev/problems/headers-too-large',
      title: 'Request headers too large',
      status: 431,
      detail: 'the request headers exceed the server limit',
    });
  });

  it('answers a request that took too long with a 408 and counts it', () => {
    const socket = new FakeSocket();
    const { logger, lines } = captureLogs();
    const stats = createConnectionStats(logger);
    answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket, logger, stats);
    const answer = written(socket);
    expect(answer.lines[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.body).toMatchObject({ status: 408, detail: 'the request did not arrive in time' });
    stats.stop();
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).at(-1)).toMatchObject({
      msg: 'connection stats',
      timedOut: 1,
      clientAborts: 0,
    });
  });

  it('only closes a socket the client already reset, and counts the abort once', () => {
    const socket = new FakeSocket();
    const { logger, lines } = captureLogs();
    const stats = createConnectionStats(logger);
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    answerClientError(reset, socket, logger, stats);
    answerClientError(reset, socket, logger, stats);
    expect(socket.destroyed).toBe(true);
    expect(socket.chunks).toEqual([]);
    stats.stop();
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).at(-1)).toMatchObject({
      msg: 'connection stats',
      clientAborts: 1,
    });
  });
});

describe('answerConnect', () => {
  it('answers CONNECT with a 405 problem with an empty Allow, and ends the connection', () => {
    const socket = new FakeSocket();
    answerConnect(socket);
    const { lines, body } = written(socket);
    expect(lines[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(lines).toContain('Allow: ');
    expect(body).toMatchObject({ type: 'https://licence.dev/problems/method-not-allowed', status: 405 });
    expect(socket.writableEnded).toBe(true);
  });
});
