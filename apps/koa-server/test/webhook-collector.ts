import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain receiver on loopback that keeps every request and answers 204: for the OpenAPI suite,
 * which checks what the service sends against the document's `webhooks` section. It runs on a
 * moved clock (2026), so it does not verify signatures (standardwebhooks refuses a timestamp over
 * 5 minutes off the real time); webhook-receiver.ts does, in the end-to-end suites.
 */

export interface CollectedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Collector {
  /** `http://127.0.0.1:<port>/collect` */
  readonly url: string;
  readonly received: CollectedRequest[];
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const received: CollectedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/collect`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
