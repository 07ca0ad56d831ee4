import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { answerClientError, clientErrorStatus } from './client-error.js';

describe('clientErrorStatus', () => {
  it('maps Node parser errors to 431, 408 and 400', () => {
    expect(clientErrorStatus('HPE_HEADER_OVERFLOW')).toEqual([431, 'Request Header Fields Too Large']);
    expect(clientErrorStatus('ERR_HTTP_REQUEST_TIMEOUT')).toEqual([408, 'Request Timeout']);
    expect(clientErrorStatus('HPE_INVALID_METHOD')).toEqual([400, 'Bad Request']);
    expect(clientErrorStatus(undefined)).toEqual([400, 'Bad Request']);
  });
});

describe('answerClientError', () => {
  it('writes a complete problem+json answer and ends the connection', () => {
    const socket = new PassThrough();
    const { logger } = captureLogs();
    answerClientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), socket, logger);
    const written = String(socket.read());
    const [head = '', body = ''] = written.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      // The service's problem builder's order (RFC 9110 5.3: the order of different fields is not significant).
      'Cache-Control: no-store',
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({
      type: 'https://licence.dev/problems/invalid-request',
      title: 'Invalid request',
      status: 400,
      detail: 'the request is not valid HTTP/1.1 or exceeds the server limits',
    });
    expect(socket.writableEnded).toBe(true);
  });

  it('answers headers too large with a 431 of its own problem type', () => {
    const socket = new PassThrough();
    const { logger } = captureLogs();
    answerClientError(Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket, logger);
    const [head = '', body = ''] = String(socket.read()).split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(body)).toEqual({
      type: 'https://licence.dev/problems/headers-too-large',
      title: 'Request headers too large',
      status: 431,
      detail: 'the request headers exceed the server limit',
    });
  });

  it('only closes a socket the client already reset', () => {
    const socket = new PassThrough();
    const { logger } = captureLogs();
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket, logger);
    expect(socket.destroyed).toBe(true);
    expect(socket.read()).toBeNull();
  });
});
