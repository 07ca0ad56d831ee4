import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { describeError, isRecord } from '@licence/core';
import type { Logger } from '@licence/service';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The handler served over HTTP on loopback, each request turned into the event an HTTP API
 * (payload 2.0, `$default` stage) would send and the result turned back the way the HTTP API
 * would answer: the same HTTP vectors then run against Lambda as against Koa, and an
 * author can try the function with curl before deploying it.
 */

/** HTTP API's payload limit (10 MB); a bigger body is refused before the function, as AWS does. */
export const LOCAL_RUNNER_MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface LocalRunnerOptions {
  /** The Lambda handler (`createLambdaHandler(...)` or the bundle's `handler`). */
  readonly handler: (event: APIGatewayProxyEventV2) => Promise<unknown>;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Faults of the runner itself (a handler that threw); the function logs its own lines. */
  readonly logger?: Pick<Logger, 'error'>;
}

export interface LocalRunner {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Stops listening and closes open connections. Idempotent. */
  close(): Promise<void>;
}

export async function startLocalRunner(options: LocalRunnerOptions): Promise<LocalRunner> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((request, response) => {
    serve(request, response, options).catch((error: unknown) => {
      // The answer could not even be written (the client left): nothing to send, only to log.
      options.logger?.error({ err: describeError(error) }, 'local runner: answer failed');
      response.destroy();
    });
  });
  await new Promise<void>((resolvePromise, rejectPromise) => {
    server.once('error', rejectPromise);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectPromise);
      resolvePromise();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('local runner: not listening on TCP');
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    server,
    close: () => {
      closing ??= new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function serve(request: IncomingMessage, response: ServerResponse, options: LocalRunnerOptions): Promise<void> {
  const body = await readBody(request);
  if (body === null) {
    // What API Gateway answers itself, without calling the function.
    writeJson(response, 413, { message: 'Request Entity Too Large' });
    request.resume();
    return;
  }
  let result: unknown;
  try {
    result = await options.handler(toHttpApiEvent(request, body));
  } catch (error) {
    // A handler that throws is a 500 `{"message":"Internal Server Error"}` behind API Gateway.
    options.logger?.error({ err: describeError(error) }, 'local runner: the handler threw');
    writeJson(response, 500, { message: 'Internal Server Error' });
    return;
  }
  writeResult(response, result);
}

/**
 * The HTTP API event of a request (payload format 2.0): header names in lower case, repeated
 * headers joined with commas, `Cookie` moved to `cookies`, the socket's address as
 * `requestContext.http.sourceIp`. A body is sent as text when it is valid UTF-8 of a textual
 * type (JSON, text), and as base64 otherwise, which is what an HTTP API does with a body it cannot
 * tell is text: both paths of the adapter run.
 */
export function toHttpApiEvent(
  request: IncomingMessage,
  body: Uint8Array,
  now: Date = new Date(),
): APIGatewayProxyEventV2 {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  let cookies: string[] = [];
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (values === undefined) continue;
    if (name === 'cookie') {
      cookies = values
        .flatMap((value) => value.split(';'))
        .map((cookie) => cookie.trim())
        .filter((cookie) => cookie !== '');
      continue;
    }
    headers[name] = values.join(',');
  }
  const method = request.method ?? 'GET';
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    const previous = queryStringParameters[name];
    queryStringParameters[name] = previous === undefined ? value : `${previous},${value}`;
  }
  const text = body.length === 0 ? undefined : asText(body, headers['content-type']);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length === 0 ? {} : { cookies }),
    headers,
    ...(url.search === '' ? {} : { queryStringParameters }),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length === 0 ? {} : text === undefined ? { body: Buffer.from(body).toString('base64') } : { body: text }),
    isBase64Encoded: body.length > 0 && text === undefined,
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(body: Uint8Array, contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^\s*(application\/([a-z0-9.+-]*\+)?json|text\/)/i.test(contentType))
    return undefined;
  try {
    return utf8.decode(body);
  } catch {
    // Not UTF-8: sent as base64, untouched (the service then answers its own 400).
    return undefined;
  }
}

/** The whole body, or null past the HTTP API limit. */
function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  return new Promise((resolvePromise, rejectPromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > LOCAL_RUNNER_MAX_BODY_BYTES) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolvePromise(over ? null : new Uint8Array(Buffer.concat(chunks))));
    request.on('error', rejectPromise);
  });
}

/**
 * A payload 2.0 result as an HTTP API turns it into a response: a structured result (with
 * `statusCode`) as given, `cookies` as Set-Cookie headers, a base64 body decoded; anything else is
 * a 200 JSON answer of the value itself.
 */
function writeResult(response: ServerResponse, result: unknown): void {
  if (!isRecord(result) || typeof result.statusCode !== 'number') {
    writeJson(response, 200, result === undefined ? null : result);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  if (isRecord(result.headers)) {
    for (const [name, value] of Object.entries(result.headers)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        headers[name] = String(value);
    }
  }
  if (Array.isArray(result.cookies))
    headers['set-cookie'] = result.cookies.filter((cookie) => typeof cookie === 'string');
  const text = typeof result.body === 'string' ? result.body : '';
  const bytes = result.isBase64Encoded === true ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  response.writeHead(result.statusCode, { ...headers, 'content-length': String(bytes.length) });
  response.end(bytes);
}

function writeJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}
