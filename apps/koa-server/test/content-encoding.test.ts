import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, send } from '@licence/http-vector-runner';
import type { HttpAnswer } from '@licence/http-vector-runner';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * A request body sent with a content coding (docs/protocol.md#request): the service never
 * decompresses, so a real gzip body is a 415 problem with `Accept-Encoding: identity` (RFC 9110
 * 12.5.3), not "body: not valid UTF-8". Raw bytes on a real socket, through Koa.
 */

const BODY = JSON.stringify({ cle: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', url: 'exemple.fr' });

function expectCodingRefused(answer: HttpAnswer): void {
  expect(answer.status).toBe(415);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers['accept-encoding']).toBe('identity');
  expect(answer.headers['access-control-allow-origin']).toBe('*');
  expect(JSON.parse(answer.text)).toEqual({
    type: 'https://licence.dev/problems/unsupported-media-type',
    title: 'Unsupported media type',
    status: 415,
    detail: 'Content-Encoding is not supported: send the body uncompressed',
  });
}

describe('Content-Encoding on the Koa server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a real gzip body, as raw bytes on the socket, with 415 problem+json', async () => {
    const gzipped = gzipSync(BODY);
    const head = [
      'POST /api/licence HTTP/1.1',
      `Host: ${server.host}:${server.port}`,
      `User-Agent: ${PRODUCT_UA}`,
      'Content-Type: application/json',
      'Content-Encoding: gzip',
      `Content-Length: ${gzipped.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const result = await exchange(server.url, Buffer.concat([Buffer.from(head, 'latin1'), gzipped]));
    expect(result.answers).toHaveLength(1);
    const [answer] = result.answers;
    if (answer === undefined) throw new Error('no answer');
    expectCodingRefused(answer);
  });

  it('answers a gzip body to the admin API alike, and still reads an identity body', async () => {
    const admin = await send(server.url, {
      method: 'POST',
      path: '/admin/products',
      headers: {
        authorization: `Bearer ${server.adminToken ?? ''}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify({ id: 'p', author: 'a', name: 'n' })),
    });
    expect(admin.status).toBe(415);
    expect(admin.headers['accept-encoding']).toBe('identity');

    const identity = await send(server.url, {
      method: 'POST',
      path: '/api/licence',
      headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: BODY,
    });
    expect(identity.status).toBe(200);
  });
});
