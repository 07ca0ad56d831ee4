import { randomBytes } from 'node:crypto';
import { isRecord, verifyEnvelope, type SignedEnvelope } from '@licence/core';
import { loadSignatureVectors } from '@licence/vectors';
import { createService } from '../src/service/index.js';
import { createMemoryRateLimiter } from '../src/ports/index.js';
import { createMemoryStore, type MemoryStore } from '@licence/store-memory';
import { createNodeSigner } from '../src/ports/index.js';
import type { Clock, Logger, RateLimiter, Store } from '../src/ports/index.js';
import type { Service, ServiceOptions, ServiceRequest, ServiceResponse } from '../src/http/index.js';

/**
 * What the service's tests share: a clock they can move, a logger that keeps every line (so a
 * test can grep them for keys), the TEST ONLY signing seed of @licence/vectors, the real memory
 * store and rate limiter, and request builders. Nothing here is a mock: each part is the real one.
 */

const vectors = loadSignatureVectors();
/** TEST ONLY seed ("TEST ONLY - never sign real data"). */
export const TEST_SEED = new Uint8Array(Buffer.from(vectors.keys.primary.seed, 'base64'));
export const TEST_PUBLIC_KEY = vectors.keys.primary.publicKey;

/** 2026-11-22T10:14:00Z, in milliseconds. */
export const START_MS = Date.UTC(2026, 10, 22, 10, 14, 0);

export interface TestClock extends Clock {
  nowMs: number;
  advance(ms: number): void;
}

export function createTestClock(startMs = START_MS): TestClock {
  const clock: TestClock = {
    nowMs: startMs,
    now: () => clock.nowMs,
    advance: (ms) => {
      clock.nowMs += ms;
    },
  };
  return clock;
}

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string | undefined;
}

export interface TestLogger extends Logger {
  readonly lines: LogLine[];
  /** Every line as JSON text, for greps. */
  text(): string;
}

export function createTestLogger(): TestLogger {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (fields: Record<string, unknown>, message?: string): void => {
      lines.push({ level, fields, message });
    };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => lines.map((line) => JSON.stringify(line)).join('\n'),
  };
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789-abcdefgh';
export const UA = 'MonTheme/1.2 (+https://exemple.fr)';

export interface Harness {
  readonly service: Service;
  readonly store: MemoryStore;
  readonly clock: TestClock;
  readonly logger: TestLogger;
}

export function createHarness(
  overrides: Partial<Omit<ServiceOptions, 'store'>> & { readonly store?: Store; readonly limit?: number } = {},
): Harness {
  const store = createMemoryStore();
  const clock = createTestClock();
  const logger = createTestLogger();
  const rateLimiter: RateLimiter = overrides.rateLimiter ?? createMemoryRateLimiter({ limit: overrides.limit ?? 30 });
  const { limit: _limit, ...rest } = overrides;
  // `overrides.store` (a wrapped store, for fault tests) replaces the memory store in the
  // service; `store` stays the memory one for the test's own look-ups.
  const service = createService({
    store,
    rateLimiter,
    clock,
    signer: createNodeSigner(TEST_SEED),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    adminToken: ADMIN_TOKEN,
    ...rest,
  });
  return { service, store, clock, logger };
}

export interface RequestInit {
  readonly path?: string;
  readonly method?: string;
  readonly ua?: string | undefined;
  readonly ip?: string;
  readonly contentType?: string | undefined;
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/** A public-endpoint request; `body` is JSON-encoded unless it is bytes, a string or null. */
export function verdictRequest(body: unknown, init: RequestInit = {}): ServiceRequest {
  const headers: Record<string, string | undefined> = {};
  const ua = 'ua' in init ? init.ua : UA;
  if (ua !== undefined) headers['user-agent'] = ua;
  const contentType = 'contentType' in init ? init.contentType : 'application/json';
  if (contentType !== undefined) headers['content-type'] = contentType;
  Object.assign(headers, init.headers ?? {});
  return {
    method: init.method ?? 'POST',
    path: init.path ?? '/api/licence',
    headers,
    body: toBytes(body),
    ip: init.ip ?? '203.0.113.7',
  };
}

export function toBytes(body: unknown): Uint8Array | null {
  if (body === null) return null;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body === undefined) return new Uint8Array(0);
  return new TextEncoder().encode(JSON.stringify(body));
}

/** An admin request with the token (`null`: no Authorization header). */
export function adminRequest(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = ADMIN_TOKEN,
): ServiceRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return { method, path, headers, body: toBytes(body), ip: '127.0.0.1' };
}

export function json(response: ServiceResponse): Record<string, unknown> {
  const value: unknown = JSON.parse(response.body);
  if (!isRecord(value)) throw new Error('expected a JSON object');
  return value;
}

/** Calls the admin API and insists on `status`. */
export async function admin(
  service: Service,
  method: string,
  path: string,
  body: unknown,
  status: number,
): Promise<Record<string, unknown>> {
  const response = await service.handle(adminRequest(method, path, body));
  if (response.status !== status) {
    throw new Error(`${method} ${path}: expected ${status}, got ${response.status} ${response.body}`);
  }
  return json(response);
}

/** Adds a product and issues a key; returns the formatted key. */
export async function issue(
  service: Service,
  key: { produit?: string; kind?: string; sites?: number; expire?: string; author?: string },
): Promise<string> {
  const productId = key.produit ?? 'mon-theme';
  const product = await service.handle(
    adminRequest('POST', '/admin/products', { id: productId, author: key.author ?? 'alice', name: productId }),
  );
  if (product.status !== 201 && product.status !== 409) throw new Error(`product: ${product.status}`);
  const { produit: _produit, author: _author, ...rest } = key;
  const issued = await admin(service, 'POST', '/admin/keys', { produit: productId, kind: 'buyer', ...rest }, 201);
  const cle = issued.cle;
  if (typeof cle !== 'string') throw new Error('no cle');
  return cle;
}

/** Asks for a verdict and checks the envelope against the TEST ONLY public key. */
export async function verdict(
  service: Service,
  body: { cle: string; url: string; produit?: string; nonce?: string },
  hote: string,
  init: RequestInit = {},
): Promise<SignedEnvelope['donnees']> {
  const response = await service.handle(verdictRequest(body, init));
  if (response.status !== 200) throw new Error(`verdict: expected 200, got ${response.status} ${response.body}`);
  const envelope: unknown = JSON.parse(response.body);
  const expect = {
    hote,
    ...(body.produit === undefined ? {} : { produit: body.produit }),
    ...(body.nonce === undefined ? {} : { nonce: body.nonce }),
  };
  if (!verifyEnvelope(envelope, [TEST_PUBLIC_KEY], expect)) throw new Error(`verdict: bad envelope ${response.body}`);
  return envelope.donnees;
}
