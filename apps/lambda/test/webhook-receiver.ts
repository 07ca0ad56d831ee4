import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A shop's webhook receiver on loopback (docs/protocol.md#webhooks): a real node:http server that
 * keeps every request and answers `status()` (200 unless the test says otherwise). The tests
 * verify what it got with the `standardwebhooks` library, an implementation that is not ours.
 */

export interface ReceivedWebhook {
  readonly method: string;
  /** The request's path (one receiver stands for several endpoints: `/a`, `/b`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** The status the next requests are answered with. */
  answer(status: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: singleValued(request.headers),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver: not listening on TCP');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    answer: (next) => {
      status = next;
    },
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}

/** What the standardwebhooks library reads: one string per header name. */
function singleValued(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}
