import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real node:http server on 127.0.0.1 for the tests of one file (a fake service is a real server,
 * never a mocked fetch: CONTRIBUTING.md#testing), started before them and closed after. `handle`
 * gets each request with its whole body; `started` gets the server's `http://127.0.0.1:<port>`.
 */
export function loopbackServerForFile(
  handle: (request: IncomingMessage, body: Buffer, response: ServerResponse) => void,
  started: (url: string) => void,
): void {
  let server: Server | undefined;
  beforeAll(async () => {
    const listening = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => handle(request, Buffer.concat(chunks), response));
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const address = listening.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
    started(`http://127.0.0.1:${address.port}`);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  });
}
