import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { protocolProblem } from './protocol-checks.js';

/** A parsed request as Node hands it over: its version and its raw header lines. */
function request(httpVersion: string, rawHeaders: readonly string[]): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.httpVersion = httpVersion;
  message.rawHeaders = [...rawHeaders];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    message.headers[name] ??= rawHeaders[i + 1];
  }
  return message;
}

const statusOf = (message: IncomingMessage): number | undefined => protocolProblem(message)?.status;

describe('protocolProblem: Host (RFC 9112 3.2)', () => {
  it('passes one Host, and HTTP/1.0 without one', () => {
    expect(statusOf(request('1.1', ['Host', 'exemple.fr']))).toBeUndefined();
    expect(statusOf(request('1.0', []))).toBeUndefined();
  });
  it('refuses HTTP/1.1 without Host, and two Host lines in any version, with a 400 problem', () => {
    const missing = protocolProblem(request('1.1', ['User-Agent', 'x']));
    expect(missing?.status).toBe(400);
    expect(missing?.headers['Content-Type']).toBe('application/problem+json');
    expect(JSON.parse(missing?.body ?? '{}')).toMatchObject({
      type: 'https://licence.dev/problems/invalid-request',
      detail: 'an HTTP/1.1 request needs exactly one Host header (RFC 9112 3.2)',
    });
    expect(statusOf(request('1.1', ['Host', 'a', 'host', 'b']))).toBe(400);
    expect(statusOf(request('1.0', ['Host', 'a', 'HOST', 'a']))).toBe(400);
  });
});

describe('protocolProblem: Expect (RFC 9110 10.1.1)', () => {
  it.each(['100-continue', '100-Continue', ' 100-continue ', 'foo, 100-continue'])('passes %j', (expect_) => {
    expect(statusOf(request('1.1', ['Host', 'x', 'Expect', expect_]))).toBeUndefined();
  });
  it.each(['bogus', '', '200-ok', '100-continued'])('refuses %j with a 417 problem', (expect_) => {
    const problem = protocolProblem(request('1.1', ['Host', 'x', 'Expect', expect_]));
    expect(problem?.status).toBe(417);
    expect(JSON.parse(problem?.body ?? '{}')).toMatchObject({ status: 417, title: 'Invalid request' });
  });
});
