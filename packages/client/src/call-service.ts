import type { CallOutcome } from '@licence/core';
import { parseJson } from './cache-file.js';

/** The client HTTP timeout (docs/protocol.md#limits: 6 seconds). */
export const DEFAULT_TIMEOUT_MS = 6000;

/** A verdict is a few hundred bytes; a longer answer is not read whole (it cannot be one of ours). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** The subset of WHATWG `fetch` the client uses, so any conforming implementation can be passed in. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ServiceCall {
  readonly fetch: FetchLike;
  readonly endpoint: string;
  readonly userAgent: string;
  readonly timeoutMs: number;
  /** The JSON body: `{cle, url, produit, nonce}`. */
  readonly body: string;
}

/**
 * One POST to the service, turned into core's `CallOutcome`: any HTTP answer is a `response`
 * (core decides what counts), no answer is a `failure`. The timeout covers the whole exchange,
 * body included, through one AbortSignal, so a service that sends its headers and then stalls
 * is given up on too. Never throws: every fault of the call is an outcome.
 */
export async function callService(call: ServiceCall): Promise<CallOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), call.timeoutMs);
  try {
    const response = await call.fetch(call.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': call.userAgent },
      body: call.body,
      signal: controller.signal,
    });
    const text = await readCapped(response, MAX_RESPONSE_BYTES);
    const status = response.status;
    // core accepts 100..599 only; an injected fetch could report anything (0 for an opaque answer).
    if (!Number.isInteger(status) || status < 100 || status > 599) return { type: 'failure', reason: 'network' };
    return {
      type: 'response',
      status,
      body: text === null ? null : parseJson(text),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch {
    // A transport failure, a refused connection, an abort: all are failed calls
    // (docs/protocol.md#states), told apart only for the back-off's record. Nothing here may stop
    // the product. Only the timer aborts, so an aborted signal means the timeout ended the call.
    return { type: 'failure', reason: controller.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, or null when it is longer than `limit` bytes (reading stops there). */
async function readCapped(response: Response, limit: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) {
    await response.body?.cancel();
    return null;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
