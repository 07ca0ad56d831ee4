import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { isRecord } from '@licence/core';
import { Webhook } from 'standardwebhooks';

/**
 * A shop's webhook receiver on loopback (docs/protocol.md#webhooks), real HTTP: it verifies every
 * request with the `standardwebhooks` npm library (the specification's own reference
 * implementation, not ours) against each secret it trusts, and keeps what arrived. It answers the
 * statuses a test queues (a 500 first...), then 200. A request that no trusted secret verifies is
 * answered 400 and counted in `rejected`, which every test expects empty.
 *
 * Secrets never leave this object: the test hands them in, and nothing here prints one.
 */

export interface ReceivedWebhook {
  /** `webhook-id`: the event's id (`msg_...`), the same on every attempt and every endpoint. */
  readonly id: string;
  /** `webhook-timestamp`, Unix seconds: the attempt's time. */
  readonly timestamp: number;
  /** How many `v1,` signatures the header held (two during a rotation). */
  readonly signatures: number;
  /** Which trusted secrets (their index in the order `trust` got them) verified it. */
  readonly verifiedBy: readonly number[];
  readonly body: string;
  readonly type: string;
  readonly eventTimestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** When it arrived, in ms (Date.now()). */
  readonly arrivedAt: number;
  /** What the receiver answered. */
  readonly answered: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  readonly url: string;
  readonly port: number;
  /** Every verified request, attempts of one event included, in arrival order. */
  readonly received: ReceivedWebhook[];
  /** Why requests were refused (no signature verified, a bad body): expected empty. */
  readonly rejected: string[];
  /** Verifies with this secret too (`whsec_...`). */
  trust(secret: string): void;
  /** The statuses the next requests are answered with, in order; 200 once they are used up. */
  answerWith(...statuses: number[]): void;
  /**
   * The next request waits for an answer until `release(status)` is called (a slow receiver); it is
   * counted in `held` as soon as it has arrived.
   */
  holdNext(): (status: number) => void;
  /** Requests that arrived while held and are not answered yet. */
  readonly held: () => number;
  /** TCP connections accepted so far, whether or not a request came over them. */
  readonly connections: () => number;
  /** Starts listening on its port (again, after `close`). */
  listen(): Promise<void>;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

/**
 * A receiver on `port` (a free one by default), not listening yet unless `listen` is called: a
 * test can give its URL to an endpoint while nothing listens there (connection refused).
 */
export function createWebhookReceiver(port: number): WebhookReceiver {
  const trusted: Webhook[] = [];
  const queued: (number | Promise<number>)[] = [];
  let held = 0;
  let connections = 0;
  const received: ReceivedWebhook[] = [];
  const rejected: string[] = [];
  let server: Server | undefined;

  const handle = async (request: IncomingMessage): Promise<number> => {
    const body = await readBody(request);
    const verdict = verify(trusted, request, body);
    if (typeof verdict === 'string') {
      rejected.push(verdict);
      return 400;
    }
    const arrivedAt = Date.now();
    const next = queued.shift() ?? 200;
    let answered: number;
    if (typeof next === 'number') {
      answered = next;
    } else {
      held += 1;
      answered = await next;
      held -= 1;
    }
    received.push({ ...verdict, arrivedAt, answered });
    return answered;
  };

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    rejected,
    trust: (secret) => void trusted.push(new Webhook(secret)),
    answerWith: (...statuses) => void queued.push(...statuses),
    holdNext: () => {
      let release: (status: number) => void = () => undefined;
      queued.push(
        new Promise<number>((resolve) => {
          release = resolve;
        }),
      );
      return (status) => release(status);
    },
    held: () => held,
    connections: () => connections,
    listen: () =>
      new Promise<void>((resolve, reject) => {
        const listening = createServer((request, response) => {
          handle(request).then(
            (status) => response.writeHead(status, { 'content-type': 'text/plain' }).end('ok'),
            (error: unknown) => {
              rejected.push(`receiver fault: ${String(error)}`);
              response.writeHead(500).end();
            },
          );
        });
        listening.on('connection', () => {
          connections += 1;
        });
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => {
          listening.off('error', reject);
          server = listening;
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        const listening = server;
        server = undefined;
        if (listening === undefined) {
          resolve();
          return;
        }
        listening.close(() => resolve());
        listening.closeAllConnections();
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The request as received, or why it is refused (never quoting a header or the body). */
function verify(
  trusted: readonly Webhook[],
  request: IncomingMessage,
  body: string,
): Omit<ReceivedWebhook, 'arrivedAt' | 'answered'> | string {
  const headers = {
    'webhook-id': header(request, 'webhook-id'),
    'webhook-timestamp': header(request, 'webhook-timestamp'),
    'webhook-signature': header(request, 'webhook-signature'),
  };
  if (request.method !== 'POST') return `method ${String(request.method)}`;
  if (request.headers['content-type'] !== 'application/json') return 'content-type is not application/json';
  const verifiedBy = trusted.flatMap((webhook, index) => (verifies(webhook, body, headers) ? [index] : []));
  if (verifiedBy.length === 0) return `no trusted secret verifies ${headers['webhook-id']}`;
  const parsed: unknown = JSON.parse(body);
  if (!isRecord(parsed) || typeof parsed.type !== 'string' || typeof parsed.timestamp !== 'string') {
    return `a body without type or timestamp (${headers['webhook-id']})`;
  }
  if (!isRecord(parsed.data)) return `a body without data (${headers['webhook-id']})`;
  return {
    id: headers['webhook-id'],
    timestamp: Number(headers['webhook-timestamp']),
    signatures: headers['webhook-signature'].split(' ').filter((part) => part.startsWith('v1,')).length,
    verifiedBy,
    body,
    type: parsed.type,
    eventTimestamp: parsed.timestamp,
    data: parsed.data,
  };
}

function verifies(webhook: Webhook, body: string, headers: Record<string, string>): boolean {
  try {
    webhook.verify(body, headers);
    return true;
  } catch {
    // WebhookVerificationError: a wrong signature, or a timestamp over 5 minutes off.
    return false;
  }
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
}
