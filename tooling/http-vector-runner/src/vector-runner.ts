import { isDeepStrictEqual } from 'node:util';
import { isRecord, parseHost, verifyEnvelope } from '@licence/core';
import type { HttpCase, HttpVectorExpect, HttpVectorRequest } from '@licence/vectors';
import { send } from './http-client.js';
import type { HttpAnswer } from './http-client.js';
import { PRODUCT_UA } from './product-user-agent.js';
import type { VectorTarget } from './vector-target.js';

/**
 * Runs one case of packages/vectors/cases/http.json against a running server (any `VectorTarget`:
 * Koa, the Lambda handler behind its local runner), as the file's
 * `notes` define it: defaults, placeholders (in paths, `auth`, headers, bodies sent and expected),
 * `save`, `repeat`, `advance`, and the expectations.
 * It returns every mismatch as one readable line (empty: the case passed), so a failing vector
 * names its step and what differed instead of stopping at the first assertion.
 */

/** What a vector sent, kept to check its answer. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer | undefined;
  /** The JSON `body` of the step after substitution, when it had one. */
  readonly json: unknown;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?::(lower|bare))?\}/g;

/** `{name}`, `{name:lower}`, `{name:bare}` (notes of http.json). An unknown name is a bug in the vector. */
export function substitute(text: string, saved: ReadonlyMap<string, string>): string {
  return text.replace(PLACEHOLDER, (_match, name: string, form: string | undefined) => {
    const value = saved.get(name);
    if (value === undefined) throw new Error(`placeholder {${name}} names nothing saved yet`);
    if (form === 'lower') return value.toLowerCase();
    if (form === 'bare') return value.replaceAll('-', '');
    return value;
  });
}

function substituteDeep(value: unknown, saved: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return substitute(value, saved);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(item, saved));
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) copy[name] = substituteDeep(item, saved);
    return copy;
  }
  return value;
}

/** The request of a step, with the defaults of the notes applied. */
export function buildRequest(
  request: HttpVectorRequest,
  saved: ReadonlyMap<string, string>,
  adminToken: string | null,
): SentRequest {
  const path = substitute(request.path, saved);
  const headers: Record<string, string | undefined> = {};
  const json = request.body === undefined ? undefined : substituteDeep(request.body, saved);
  let body: Buffer | undefined;
  if (json !== undefined) {
    body = Buffer.from(JSON.stringify(json), 'utf8');
  } else if (request.raw !== undefined || request.rawRepeat !== undefined) {
    const repeated = request.rawRepeat === undefined ? '' : request.rawRepeat.text.repeat(request.rawRepeat.times);
    body = Buffer.from(substitute(request.raw ?? '', saved) + repeated + (request.rawEnd ?? ''), 'utf8');
  }
  if (path.startsWith('/api/')) {
    headers['content-type'] = 'application/json';
    headers['user-agent'] = PRODUCT_UA;
  } else if (path.startsWith('/admin/') || path === '/admin') {
    // `auth` may name a saved author token ({t}: docs/protocol.md#authors), as the notes say.
    const token =
      request.auth === undefined ? adminToken : request.auth === null ? null : substitute(request.auth, saved);
    if (token !== null) headers.authorization = `Bearer ${token}`;
    // A JSON `body` is JSON text: say so, as any admin client would
    // (docs/protocol.md#administration: JSON in).
    if (json !== undefined) headers['content-type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name] = value === null ? undefined : substitute(value, saved);
  }
  return { method: request.method, path, headers, body, json };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: the caller reports the raw text as the mismatch.
    return undefined;
  }
}

/** Every way `answer` differs from `expected`; an /api/ 200 must also verify (notes of http.json). */
export function checkAnswer(
  expected: HttpVectorExpect,
  answer: HttpAnswer,
  sent: SentRequest,
  publicKey: string,
): string[] {
  const failures: string[] = [];
  const body = parseJson(answer.text);
  if (answer.status !== expected.status) {
    failures.push(`status ${answer.status}, expected ${expected.status}: ${answer.text.slice(0, 300)}`);
    return failures;
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const actual = answer.headers[name];
    if (value === '*present*' ? actual === undefined : actual !== value) {
      failures.push(`header ${name}: ${String(actual)}, expected ${value}`);
    }
  }
  if (expected.problem !== undefined) {
    if (answer.headers['content-type'] !== 'application/problem+json') {
      failures.push(`content-type ${String(answer.headers['content-type'])}, expected application/problem+json`);
    }
    if (
      !isRecord(body) ||
      typeof body.type !== 'string' ||
      typeof body.title !== 'string' ||
      typeof body.detail !== 'string' ||
      body.status !== answer.status
    ) {
      failures.push(`not an RFC 9457 problem with status ${answer.status}: ${answer.text.slice(0, 300)}`);
    } else if (body.type.split('/').at(-1) !== expected.problem) {
      failures.push(`problem type ${body.type}, expected .../${expected.problem}`);
    }
  }
  for (const [name, value] of Object.entries(expected.body ?? {})) {
    const actual = isRecord(body) ? body[name] : undefined;
    if (!isDeepStrictEqual(actual, value))
      failures.push(`body.${name}: ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`);
  }
  const donnees = isRecord(body) && isRecord(body.donnees) ? body.donnees : undefined;
  for (const [name, value] of Object.entries(expected.donnees ?? {})) {
    const actual = donnees?.[name];
    if (!isDeepStrictEqual(actual, value))
      failures.push(`donnees.${name}: ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`);
  }
  if (answer.status === 200 && sent.path.startsWith('/api/')) failures.push(...checkEnvelope(body, sent, publicKey));
  return failures;
}

/**
 * A 200 of the public endpoint: an envelope that verifies for the host the request named (core's
 * parseHost of the `url` sent, which must be `donnees.hote`), with `produit` and `nonce` echoed
 * exactly when sent (docs/protocol.md#product-and-nonce), and absent when not.
 */
export function checkEnvelope(body: unknown, sent: { readonly json: unknown }, publicKey: string): string[] {
  const failures: string[] = [];
  const fields = isRecord(sent.json) ? sent.json : {};
  const donnees = isRecord(body) && isRecord(body.donnees) ? body.donnees : undefined;
  if (donnees === undefined) return [`a 200 without donnees: ${JSON.stringify(body)}`];
  const hote = typeof donnees.hote === 'string' ? donnees.hote : '';
  if (typeof fields.url === 'string' && parseHost(fields.url).hote !== hote) {
    failures.push(`donnees.hote ${hote}, but the url sent names ${parseHost(fields.url).hote}`);
  }
  const expectation = {
    hote,
    ...(typeof fields.produit === 'string' ? { produit: fields.produit } : {}),
    ...(typeof fields.nonce === 'string' ? { nonce: fields.nonce } : {}),
  };
  if (!verifyEnvelope(body, [publicKey], expectation))
    failures.push(`the envelope does not verify: ${JSON.stringify(body)}`);
  for (const name of ['produit', 'nonce'] as const) {
    if (fields[name] === undefined && name in donnees) failures.push(`donnees.${name} present though not sent`);
  }
  return failures;
}

export interface CaseResult {
  /** Every mismatch, each naming its step; empty when the case passed. */
  readonly failures: readonly string[];
  /** Every value saved by the case, by name (keys, author tokens, token ids). */
  readonly saved: ReadonlyMap<string, string>;
  /**
   * The saved values that are secrets (notes of http.json): those of a `cle`, `token` or `secret`
   * field, the keys, author tokens and webhook secrets the case was issued, to look for them in the
   * logs.
   */
  readonly secrets: readonly string[];
}

/**
 * The fields whose values must never reach a log line (docs/protocol.md#privacy): a licence key, an
 * author token (#authors), a webhook secret (#webhooks, shown once when created or rotated).
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['cle', 'token', 'secret']);

/** The expectation with its placeholders filled in: the string values of `body` (notes of http.json). */
function expectationOf(expected: HttpVectorExpect, saved: ReadonlyMap<string, string>): HttpVectorExpect {
  if (expected.body === undefined) return expected;
  const body = substituteDeep(expected.body, saved);
  return isRecord(body) ? { ...expected, body } : expected;
}

/** Keeps the `save` fields of an answer; the failures say which could not be saved. */
function saveFields(
  save: Readonly<Record<string, string>>,
  text: string,
  saved: Map<string, string>,
  secrets: string[],
): string[] {
  const failures: string[] = [];
  const body = parseJson(text);
  for (const [name, field] of Object.entries(save)) {
    const value = isRecord(body) ? body[field] : undefined;
    if (typeof value !== 'string') {
      failures.push(`cannot save ${name}: no string field ${field}`);
      continue;
    }
    saved.set(name, value);
    if (SECRET_FIELDS.has(field)) secrets.push(value);
  }
  return failures;
}

/** Runs every step of `vector` on `server`. */
export async function runHttpCase(vector: HttpCase, server: VectorTarget): Promise<CaseResult> {
  const saved = new Map<string, string>();
  const secrets: string[] = [];
  const failures: string[] = [];
  for (const [index, step] of vector.steps.entries()) {
    if ('advance' in step) {
      server.clock.advance(step.advance);
      continue;
    }
    for (let round = 0; round < (step.repeat ?? 1); round += 1) {
      const sent = buildRequest(step.request, saved, server.adminToken);
      const answer = await send(server.url, {
        method: sent.method,
        path: sent.path,
        headers: sent.headers,
        ...(sent.body === undefined ? {} : { body: sent.body }),
      });
      const label = `step ${index + 1} (${sent.method} ${step.request.path}${step.repeat === undefined ? '' : `, round ${round + 1}`})`;
      const expected = expectationOf(step.expect, saved);
      failures.push(
        ...checkAnswer(expected, answer, sent, server.publicKey).map((failure) => `${label}: ${failure}`),
        ...saveFields(step.save ?? {}, answer.text, saved, secrets).map((failure) => `${label}: ${failure}`),
      );
    }
  }
  return { failures, saved, secrets };
}
