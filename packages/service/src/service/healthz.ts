import { describeError } from '@licence/core';
import { HttpError } from '../http/index.js';
import { jsonResponse } from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/** A store slower than this counts as down: a health check must answer quickly. */
export const HEALTH_TIMEOUT_MS = 2000;

/** Rejects after `ms`, or resolves with `promise`; the timer never outlives the race. */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    // A pending health check must not keep a process alive on its own.
    timer.unref?.();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: 200 `{"status":"ok","store":"up"}` when the store answers its ping in time, else
 * 503 `{"status":"error","store":"down"}` (and a warning in the log). Not filtered, not counted
 * (docs/protocol.md#request), so a load balancer's probe never meets the User-Agent filter or the
 * rate limit.
 */
export async function handleHealth(
  context: ServiceContext,
  request: ServiceRequest,
  timeoutMs = HEALTH_TIMEOUT_MS,
): Promise<ServiceResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new HttpError('method-not-allowed', 'use GET on this path', { headers: { Allow: 'GET, HEAD' } });
  }
  try {
    await withTimeout(context.store.ping(), timeoutMs);
    return jsonResponse(200, { status: 'ok', store: 'up' });
  } catch (error) {
    context.logger.warn({ err: describeError(error) }, 'health check: the store did not answer');
    return jsonResponse(503, { status: 'error', store: 'down' });
  }
}
