import { type ClientRequest, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isValidationError } from '@licence/core';
import { parseAddress } from '../http/index.js';
import { checkWebhookUrl, refusedRange, WEBHOOK_PRIVATE_ADDRESS } from './destination.js';
import type { WebhookHeaders } from './signature.js';

/**
 * One webhook attempt over HTTP (docs/protocol.md#webhooks): a POST of the signed body, judged by
 * its status alone. It never rejects: whatever happens becomes `{status, error}`, the attempt's
 * line in the delivery log. Error texts are short and fixed: never the URL (its query may hold the
 * shop's credential), never a secret, never a message a receiver or resolver wrote.
 */

/** A 2xx within this many milliseconds is a success (docs/protocol.md#webhooks). */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** The most bytes of an answer read (then dropped): the status is all that counts. */
export const MAX_WEBHOOK_ANSWER_BYTES = 4096;
/** What every attempt says it is, so a shop's firewall or log can tell our requests apart. */
export const WEBHOOK_USER_AGENT = 'licence-service-webhooks/1 (@licence/service)';

export interface WebhookPost {
  /** The endpoint's stored URL; checked again here (the address rules at request time too). */
  readonly url: string;
  readonly headers: WebhookHeaders;
  readonly body: string;
}

export interface WebhookTransportOptions {
  /** One deadline for the whole attempt: resolving, connecting, TLS, sending and the answer. */
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  /** safeLookup(allowPrivate, resolve): refuses a host name that resolves to a non-public address. */
  readonly lookup: LookupFunction;
}

/** What one attempt got: the receiver's status (null when none came) and why it failed (null for a 2xx). */
export interface WebhookAnswer {
  readonly status: number | null;
  readonly error: string | null;
}

/** Sends one attempt; resolves once the exchange is over and its socket closed, never rejects. */
export function postWebhook(post: WebhookPost, options: WebhookTransportOptions): Promise<WebhookAnswer> {
  const target = checkedUrl(post.url, options.allowPrivate);
  if (typeof target === 'string') return Promise.resolve({ status: null, error: target });
  return new Promise((resolve) => {
    let status: number | null = null;
    let request: ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    const answered = (): WebhookAnswer => (status === null ? timeoutAnswer(options.timeoutMs) : statusAnswer(status));
    const finish = (answer: WebhookAnswer): void => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      request?.destroy();
      resolve(answer);
    };
    // The one deadline: Node's own `timeout` option only watches socket idleness, and a receiver
    // sending a byte a second would hold the attempt forever.
    timer = setTimeout(() => finish(answered()), options.timeoutMs);
    try {
      request = open(target, post, options);
    } catch (error) {
      return finish({ status: null, error: networkError(error) });
    }
    request.on('response', (response: IncomingMessage) => {
      status = response.statusCode ?? 0;
      drain(response, () => finish(answered()));
    });
    request.on('error', (error) => finish(status === null ? { status: null, error: networkError(error) } : answered()));
    request.end(post.body);
  });
}

function open(target: URL, post: WebhookPost, options: WebhookTransportOptions): ClientRequest {
  const requestOptions: RequestOptions = {
    method: 'POST',
    // URL keeps the brackets of an IPv6 host; a socket wants the bare address.
    hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: target.port === '' ? undefined : Number(target.port),
    path: `${target.pathname}${target.search}`,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(post.body, 'utf8')),
      'user-agent': WEBHOOK_USER_AGENT,
      ...post.headers,
    },
    // Never a shared pool: a hostile receiver holding its sockets open starves nothing else, and
    // every socket is closed when its attempt ends.
    agent: false,
    lookup: options.lookup,
  };
  return target.protocol === 'https:' ? httpsRequest(requestOptions) : httpRequest(requestOptions);
}

/** Reads and drops at most MAX_WEBHOOK_ANSWER_BYTES of the answer, then calls `done` once. */
function drain(response: IncomingMessage, done: () => void): void {
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received >= MAX_WEBHOOK_ANSWER_BYTES) done();
  });
  response.on('end', done);
  response.on('close', done);
  response.on('error', done);
}

/** The URL parsed, or why the rules refuse it now (the setting may have changed since it was stored). */
function checkedUrl(url: string, allowPrivate: boolean): URL | string {
  try {
    return checkWebhookUrl(url, { allowPrivate });
  } catch (error) {
    // Node connects to an IP-literal host without calling `lookup`: this check is the only one then.
    const address = parseAddress(URL.canParse(url) ? new URL(url).hostname : '');
    const range = address === null ? null : refusedRange(address);
    if (range !== null) return privateAddress(range);
    // checkWebhookUrl's messages never repeat the URL.
    return isValidationError(error) ? `url refused: ${error.message.replace(/^url: /, '')}` : 'url refused';
  }
}

function privateAddress(range: { readonly cidr: string; readonly name: string }): string {
  return `private address refused (${range.cidr}, ${range.name})`;
}

function timeoutAnswer(timeoutMs: number): WebhookAnswer {
  return { status: null, error: `timeout after ${timeoutMs / 1000} s` };
}

function statusAnswer(status: number): WebhookAnswer {
  if (status >= 200 && status < 300) return { status, error: null };
  // A redirect could lead anywhere, an internal address included: it is a failure, never followed.
  if (status >= 300 && status < 400) return { status, error: `redirect not followed (${status})` };
  return { status, error: `HTTP ${status}` };
}

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/** A fixed text per error code: the message may name the host, the code never does. */
function networkError(error: unknown): string {
  const code = errorCode(error);
  if (code === WEBHOOK_PRIVATE_ADDRESS) {
    const address = parseAddress(addressOf(error));
    const range = address === null ? null : refusedRange(address);
    return range === null ? 'private address refused' : privateAddress(range);
  }
  if (code === null) return 'network error';
  const known = NETWORK_ERRORS[code];
  if (known !== undefined) return known;
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) {
    return `TLS error (${code})`;
  }
  if (code.startsWith('HPE_')) return `invalid HTTP answer (${code})`;
  return `network error (${code})`;
}

function errorCode(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : null;
}

function addressOf(error: unknown): string {
  const address = typeof error === 'object' && error !== null ? (error as { address?: unknown }).address : undefined;
  return typeof address === 'string' ? address : '';
}
