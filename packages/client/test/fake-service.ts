import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A fake licence service: a real HTTP server on loopback (CONTRIBUTING.md#testing: no mocked fetch) whose answer
 * the test scripts, for what the real service never does: replay an old response, answer a
 * forged or broken body, or never answer at all.
 */

export interface FakeAnswer {
  readonly status: number;
  /** Sent as is (JSON text or anything else); absent: no body. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface FakeService {
  readonly url: string;
  /**
   * Every request received, in order, recorded as soon as its head arrives: a client that gives up
   * before the body is read is still counted. Its `body` is filled in once the body has arrived.
   */
  readonly requests: ReceivedRequest[];
  /** Requests whose client closed the connection before any answer (a client that gave up). */
  abandoned(): number;
  /** What the next requests get: an answer, or 'hang' (read the request, never answer). */
  answer(next: FakeAnswer | 'hang' | ((request: ReceivedRequest) => FakeAnswer | 'hang')): void;
  close(): Promise<void>;
}

export async function startFakeService(): Promise<FakeService> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let abandoned = 0;
  let next: FakeAnswer | 'hang' | ((request: ReceivedRequest) => FakeAnswer | 'hang') = { status: 503 };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const head = { method: request.method ?? '', path: request.url ?? '', headers: request.headers };
    const index = requests.push({ ...head, body: '' }) - 1;
    response.on('close', () => {
      if (!response.writableEnded) abandoned += 1;
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = { ...head, body: Buffer.concat(chunks).toString('utf8') };
      requests[index] = received;
      const answer = typeof next === 'function' ? next(received) : next;
      if (answer === 'hang') return;
      response.writeHead(answer.status, {
        ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...answer.headers,
      });
      response.end(answer.body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fake service is not listening on TCP');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    abandoned: () => abandoned,
    answer: (answer) => {
      next = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback address where nothing listens (a port just released): connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
