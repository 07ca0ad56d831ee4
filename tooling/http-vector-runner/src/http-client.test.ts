import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loopbackServerForFile } from '../test/loopback-server.js';
import { adminCall, exchange, parseAnswers, send } from './http-client.js';

/** The two ways to talk to a server, against a real node:http server on loopback that echoes what it got. */

let url = '';
let seen: { headers: IncomingHttpHeaders; body: string } | undefined;

loopbackServerForFile(
  (request, body, response) => {
    seen = { headers: request.headers, body: body.toString('utf8') };
    const status = request.url === '/fail' ? 409 : 200;
    const text = JSON.stringify({ path: request.url, method: request.method });
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'x-two': ['a', 'b'],
    });
    response.end(text);
  },
  (started) => {
    url = started;
  },
);

describe('send', () => {
  it('sends exactly the headers given (no User-Agent of its own) and joins repeated answer headers', async () => {
    const answer = await send(url, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'text/plain', skipped: undefined },
      body: 'hello',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-two']).toBe('a, b');
    expect(JSON.parse(answer.text)).toEqual({ path: '/x', method: 'POST' });
    expect(seen?.headers['user-agent']).toBeUndefined();
    expect(seen?.headers.skipped).toBeUndefined();
    expect(seen?.headers['content-length']).toBe('5');
    expect(seen?.body).toBe('hello');
  });

  it('sends a chunked body in pieces', async () => {
    await send(url, { method: 'POST', path: '/chunks', body: 'abcdefghij', chunkSize: 3 });
    expect(seen?.headers['transfer-encoding']).toBe('chunked');
    expect(seen?.headers['content-length']).toBeUndefined();
    expect(seen?.body).toBe('abcdefghij');
  });
});

describe('exchange and parseAnswers', () => {
  it('reads pipelined answers off a raw socket until the server closes it', async () => {
    const request = (path: string, close: boolean) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
    const result = await exchange(url, request('/one', false) + request('/two', true));
    expect(result.ended).toBe('closed');
    expect(result.answers.map((answer) => JSON.parse(answer.text) as unknown)).toEqual([
      { path: '/one', method: 'GET' },
      { path: '/two', method: 'GET' },
    ]);
  });

  it('refuses bytes that are not framed HTTP/1.1 answers', () => {
    expect(() => parseAnswers(Buffer.from('garbage'))).toThrow('unframed bytes after 0 answers');
    expect(() => parseAnswers(Buffer.from('HTTP/2 200\r\n\r\n'))).toThrow('not a status line');
  });
});

describe('adminCall', () => {
  it('returns the JSON object of a 2xx and throws with the path on anything else', async () => {
    await expect(adminCall({ url, adminToken: 'tok' }, 'POST', '/ok', { a: 1 })).resolves.toEqual({
      path: '/ok',
      method: 'POST',
    });
    expect(seen?.headers.authorization).toBe('Bearer tok');
    expect(seen?.headers['content-type']).toBe('application/json');
    await expect(adminCall({ url, adminToken: 'tok' }, 'GET', '/fail')).rejects.toThrow('/fail: 409');
  });
});
