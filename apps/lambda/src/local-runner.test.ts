import { send } from '@licence/http-vector-runner';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RUNNER_MAX_BODY_BYTES, startLocalRunner } from './local-runner.js';
import type { LocalRunner } from './local-runner.js';

/**
 * The runner on its own: real HTTP over loopback into a handler that records the events it gets
 * and answers what the test says (test/http-vectors-local-runner.test.ts runs the real handler).
 */

let runner: LocalRunner;
const events: APIGatewayProxyEventV2[] = [];
let answer: () => Promise<unknown> = () => Promise.resolve({ statusCode: 204, body: '' });
const faults: string[] = [];

beforeAll(async () => {
  runner = await startLocalRunner({
    handler: (event) => {
      events.push(event);
      return answer();
    },
    logger: { error: (_fields, message) => faults.push(message ?? '') },
  });
});

afterAll(async () => {
  await runner.close();
});

const lastEvent = (): APIGatewayProxyEventV2 => {
  const event = events.at(-1);
  if (event === undefined) throw new Error('no event');
  return event;
};

describe('each request as an HTTP API (payload 2.0) event', () => {
  it('method, rawPath, query, lower-case headers, cookies apart, the socket address as sourceIp', async () => {
    await send(runner.url, {
      method: 'POST',
      path: '/api/licence?a=1&a=2&b=x',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Test/1', Cookie: 'c1=1; c2=2', 'X-Two': 'one' },
      body: '{"cle":"x"}',
    });
    const event = lastEvent();
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/api/licence',
      rawQueryString: 'a=1&a=2&b=x',
      cookies: ['c1=1', 'c2=2'],
      isBase64Encoded: false,
      body: '{"cle":"x"}',
    });
    expect(event.queryStringParameters).toEqual({ a: '1,2', b: 'x' });
    expect(event.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Test/1', 'x-two': 'one' });
    expect(event.headers).not.toHaveProperty('cookie');
    expect(event.requestContext).toMatchObject({
      stage: '$default',
      http: { method: 'POST', path: '/api/licence', sourceIp: '127.0.0.1', userAgent: 'Test/1', protocol: 'HTTP/1.1' },
    });
  });

  it('a body that is not JSON or text, or not UTF-8, goes as base64; no body, no body field', async () => {
    await send(runner.url, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'application/octet-stream' },
      body: Uint8Array.from([0, 255, 1]),
    });
    expect(lastEvent()).toMatchObject({ isBase64Encoded: true, body: Buffer.from([0, 255, 1]).toString('base64') });
    await send(runner.url, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'application/json' },
      body: Uint8Array.from([0x7b, 0xff, 0x7d]),
    });
    expect(lastEvent()).toMatchObject({
      isBase64Encoded: true,
      body: Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'),
    });
    await send(runner.url, { method: 'GET', path: '/healthz' });
    expect(lastEvent()).not.toHaveProperty('body');
    expect(lastEvent().isBase64Encoded).toBe(false);
  });
});

describe('each result as the HTTP API would answer it', () => {
  it('status, headers, cookies as Set-Cookie, a base64 body decoded', async () => {
    answer = () =>
      Promise.resolve({
        statusCode: 201,
        headers: { 'X-Answer': 'yes' },
        cookies: ['a=1', 'b=2'],
        body: Buffer.from('héllo').toString('base64'),
        isBase64Encoded: true,
      });
    const response = await send(runner.url, { method: 'GET', path: '/' });
    expect(response.status).toBe(201);
    expect(response.headers['x-answer']).toBe('yes');
    expect(response.headers['set-cookie']).toBe('a=1, b=2');
    expect(response.text).toBe('héllo');
  });

  it('a value without statusCode is a 200 JSON answer of that value', async () => {
    answer = () => Promise.resolve({ erased: 3 });
    const response = await send(runner.url, { method: 'GET', path: '/' });
    expect(response).toMatchObject({ status: 200, text: '{"erased":3}' });
    expect(response.headers['content-type']).toBe('application/json');
  });

  it('a handler that throws is a 500 {"message":"Internal Server Error"}, and logged', async () => {
    answer = () => Promise.reject(new Error('kaboom'));
    const response = await send(runner.url, { method: 'GET', path: '/' });
    expect(response).toMatchObject({ status: 500, text: '{"message":"Internal Server Error"}' });
    expect(faults).toContain('local runner: the handler threw');
  });

  it('a body over the HTTP API limit is refused with 413 before the handler', async () => {
    const before = events.length;
    const response = await send(runner.url, {
      method: 'POST',
      path: '/api/licence',
      body: new Uint8Array(LOCAL_RUNNER_MAX_BODY_BYTES + 1),
    });
    expect(response).toMatchObject({ status: 413, text: '{"message":"Request Entity Too Large"}' });
    expect(events).toHaveLength(before);
  });
});
