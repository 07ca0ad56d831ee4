import type { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { isRecord } from '@licence/core';
import { send } from '@licence/http-vector-runner';
import type { HttpAnswer } from '@licence/http-vector-runner';
import type { ServeProcess } from './cli-process.js';

/**
 * Helpers for the multi-process tests: verdict calls to real `licence serve` child
 * processes, each from a chosen client address (X-Forwarded-For, read because the processes run
 * with TRUST_PROXY=1), and an orderly stop of every process a test started.
 */

export const PRODUCT_UA = 'MonTheme/2.1';

export interface TimedAnswer extends HttpAnswer {
  /** How long the request took, from send to the last byte, in ms. */
  readonly ms: number;
}

/**
 * POST /api/licence with `body` as `client` (an address from 198.18.0.0/15, the RFC 2544
 * benchmarking range: it only ever travels in a header over loopback). A fresh connection each
 * time, so concurrent calls really are concurrent on the server. `agent` (one with a
 * `localAddress` of 127.0.0.x) sends from that real source address instead, for a server
 * without TRUST_PROXY, which ignores the header.
 */
export async function postVerdict(
  baseUrl: string,
  body: Readonly<Record<string, unknown>>,
  client: string,
  agent?: Agent,
): Promise<TimedAnswer> {
  const started = performance.now();
  const answer = await send(baseUrl, {
    method: 'POST',
    path: '/api/licence',
    headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
    ...(agent === undefined ? {} : { agent }),
  });
  return { ...answer, ms: performance.now() - started };
}

/** The n-th address of 198.18.0.0/15 (RFC 2544), n < 131072. */
export function benchmarkAddress(n: number): string {
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** SIGTERM to every process, then their exit codes (0 after an orderly shutdown: README "Shutdown"). */
export async function stopAll(processes: readonly ServeProcess[]): Promise<(number | null)[]> {
  for (const serve of processes) serve.child.kill('SIGTERM');
  return Promise.all(processes.map((serve) => serve.exited));
}

export function parseJson(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error(`not a JSON object: ${text}`);
  return value;
}
