import { request as httpRequest } from 'node:http';
import type { Agent } from 'node:http';
import { connect } from 'node:net';

/**
 * Two ways to talk to a test server over loopback:
 * - `send`: node:http, so every header is exactly what the test says (fetch would add its own
 *   User-Agent and a text/plain Content-Type for a string body);
 * - `exchange`: raw bytes on a socket, for what no HTTP client lets you send (a lying
 *   Content-Length, invalid framing, pipelined garbage).
 */

export interface HttpAnswer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export interface SendOptions {
  readonly method: string;
  readonly path: string;
  /** Sent as given (no defaults); a value of undefined is skipped. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Content-Length is set from it, unless `chunked`. */
  readonly body?: Uint8Array | string;
  /** Send the body with Transfer-Encoding: chunked, in pieces of this many bytes. */
  readonly chunkSize?: number;
  readonly agent?: Agent;
}

export function send(baseUrl: string, options: SendOptions): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name] = value;
  }
  if (body !== undefined && options.chunkSize === undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers,
        ...(options.agent === undefined ? { agent: false } : { agent: options.agent }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const answerHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: answerHeaders,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    if (body !== undefined && options.chunkSize !== undefined) {
      for (let offset = 0; offset < body.length; offset += options.chunkSize) {
        outgoing.write(body.subarray(offset, offset + options.chunkSize));
      }
      outgoing.end();
    } else {
      outgoing.end(body);
    }
  });
}

export interface RawExchange {
  /** Every answer parsed from what the server wrote, in order. */
  readonly answers: readonly HttpAnswer[];
  /** How the exchange ended: the server closed the connection, or the safety timer ran out. */
  readonly ended: 'closed' | 'timeout';
}

/**
 * Writes `bytes` on a fresh connection and reads until the server closes it (send
 * `Connection: close` in the last request, or half-close, so it does). The timer is only a safety net against a
 * hung test: a test asserts `ended === 'closed'`, never a duration.
 */
export function exchange(
  baseUrl: string,
  bytes: Uint8Array | string,
  options: { readonly halfClose?: boolean; readonly safetyMs?: number } = {},
): Promise<RawExchange> {
  const url = new URL(baseUrl);
  const safetyMs = options.safetyMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => {
      // halfClose: the client says it has nothing more to send (FIN), as a client that gave up would.
      if (options.halfClose === true) socket.end(bytes);
      else socket.write(bytes);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answers: parseAnswers(Buffer.concat(chunks)), ended: 'timeout' });
    }, safetyMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the server answered and closed is an end like any other here.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answers: parseAnswers(Buffer.concat(chunks)), ended: 'closed' });
    });
  });
}

/** Splits raw HTTP/1.1 responses framed by Content-Length (all the server sends). */
export function parseAnswers(data: Buffer): HttpAnswer[] {
  const answers: HttpAnswer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1)
      throw new Error(
        `unframed bytes after ${answers.length} answers: ${data.subarray(offset).toString('latin1').slice(0, 200)}`,
      );
    const head = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const statusLine = /^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '');
    if (statusLine === null) throw new Error(`not a status line: ${head[0] ?? ''}`);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const status = Number(statusLine[1]);
    const length = status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? '0');
    const bodyStart = headEnd + 4;
    answers.push({ status, headers, text: data.subarray(bodyStart, bodyStart + length).toString('utf8') });
    offset = bodyStart + length;
  }
  return answers;
}

/**
 * An authorised admin call that must succeed: the parsed JSON object of a 2xx answer, else an
 * error naming the path and the answer.
 */
export async function adminCall(
  server: { readonly url: string; readonly adminToken: string | null },
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await send(server.url, {
    method,
    path,
    headers: {
      authorization: `Bearer ${server.adminToken ?? ''}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed: unknown = JSON.parse(answer.text);
  if (answer.status >= 300 || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path}: ${answer.status} ${answer.text}`);
  }
  return parsed as Record<string, unknown>;
}
