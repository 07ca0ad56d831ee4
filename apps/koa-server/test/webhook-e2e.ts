import { isRecord } from '@licence/core';
import { send } from '@licence/http-vector-runner';
import { WEBHOOK_EVENT_TYPES } from '@licence/service';
import { expect } from 'vitest';

/**
 * The admin API calls of the webhook suites (docs/protocol.md#webhooks), against a real
 * `licence serve` child process, and the polling they wait with. An answer is kept as its status
 * and parsed body; a failed expectation names the path and the status, never the body (a 201 of
 * POST /admin/webhooks holds the secret, one of /admin/keys a key).
 */

export interface AdminTarget {
  readonly url: string;
  readonly adminToken: string;
}

export interface AdminAnswer {
  readonly status: number;
  /** The parsed JSON object; {} for an empty body. */
  readonly json: Record<string, unknown>;
}

/** An `whsec_` secret: the prefix and the padded base64 of 32 bytes (docs/protocol.md#webhooks). */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

export async function adminRequest(
  target: AdminTarget,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<AdminAnswer> {
  const answer = await send(target.url, {
    method,
    path,
    headers: {
      authorization: `Bearer ${target.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed: unknown = answer.text === '' ? {} : JSON.parse(answer.text);
  if (!isRecord(parsed)) throw new Error(`${method} ${path}: ${answer.status}, not a JSON object`);
  return { status: answer.status, json: parsed };
}

/** An admin call that must answer `status`; its body. */
export async function adminExpect(
  target: AdminTarget,
  status: number,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await adminRequest(target, method, path, body);
  expect(answer.status, `${method} ${path}`).toBe(status);
  return answer.json;
}

export function stringField(json: Readonly<Record<string, unknown>>, name: string): string {
  const value = json[name];
  if (typeof value !== 'string') throw new Error(`no string ${name} in the answer`);
  return value;
}

/** POST /admin/webhooks for every author's events (the operator's); its id and its secret. */
export async function addEndpoint(
  target: AdminTarget,
  url: string,
  events: readonly string[] = WEBHOOK_EVENT_TYPES,
): Promise<{ readonly id: string; readonly secret: string }> {
  const created = await adminExpect(target, 201, 'POST', '/admin/webhooks', { url, events });
  const secret = stringField(created, 'secret');
  // Compared as booleans: a failing assertion prints its values, and this one would print the secret.
  expect(WEBHOOK_SECRET.test(secret)).toBe(true);
  const { secret: _shownOnce, ...view } = created;
  expect(view).toEqual({ id: expect.stringMatching(/^wh_/), url, events, author: null, created: expect.any(String) });
  return { id: stringField(created, 'id'), secret };
}

/** POST /admin/keys: a buyer key of `produit`; its key (formatted) and hint. */
export async function issueKey(
  target: AdminTarget,
  produit: string,
  sites = 1,
): Promise<{ readonly cle: string; readonly hint: string }> {
  const issued = await adminExpect(target, 201, 'POST', '/admin/keys', { produit, kind: 'buyer', sites });
  return { cle: stringField(issued, 'cle'), hint: stringField(issued, 'hint') };
}

export interface DeliveryView {
  readonly id: string;
  readonly event: string;
  readonly type: string;
  readonly created: string;
  readonly status: string;
  readonly nextAttempt: string | null;
  readonly attempts: readonly {
    readonly at: string;
    readonly status: number | null;
    readonly error: string | null;
    readonly durationMs: number;
  }[];
}

/** GET /admin/webhooks/:id/deliveries: the last 100, newest first. */
export async function deliveriesOf(target: AdminTarget, endpointId: string): Promise<DeliveryView[]> {
  const answer = await adminExpect(target, 200, 'GET', `/admin/webhooks/${endpointId}/deliveries`);
  expect(answer.webhook).toBe(endpointId);
  if (!Array.isArray(answer.deliveries)) throw new Error('no deliveries in the answer');
  return answer.deliveries as DeliveryView[];
}

/**
 * Polls `done` every 100 ms until it holds; past `timeoutMs` (a bound on a hang for a loaded CI
 * machine, never a speed target) fails naming `what`.
 */
export async function waitUntil(
  what: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The distinct event ids among `ids`, with how many times each came. */
export function countById(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** How many `webhook delivered` log lines a `licence serve` process wrote: the deliveries it made. */
export function deliveredBy(logs: readonly string[]): number {
  return logs.filter((line) => (JSON.parse(line) as Record<string, unknown>).msg === 'webhook delivered').length;
}
