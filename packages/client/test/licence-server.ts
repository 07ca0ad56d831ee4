import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { decodeBase64 } from '@licence/core';
import { createApp, createLogger } from '@licence/koa-server';
import { createMemoryRateLimiter, createNodeSigner, createService } from '@licence/service';
import { openSqliteStore } from '@licence/store-sqlite';
import { loadSignatureVectors } from '@licence/vectors';

/**
 * The real licence service for end-to-end tests: createApp (Koa) + createService + a SQLite store
 * in a temporary folder, on 127.0.0.1:0, signing with the TEST ONLY seed of @licence/vectors, on a
 * clock the test moves. The same pieces as apps/koa-server/test/test-server.ts, plus what these
 * tests need: a count of the verdict requests that reach the server, and an optional delay
 * before they are handled (to hold the refresh lock open while other processes arrive).
 */

const keys = loadSignatureVectors().keys;

/** TEST ONLY (signatures.json): public on purpose, never used for real data. */
export const TEST_SEED = decodeBase64(keys.primary.seed, 'seed', 32);
export const TEST_PUBLIC_KEY = keys.primary.publicKey;
export const ROTATION_PUBLIC_KEY = keys.rotation.publicKey;

export interface ServiceClock {
  now(): number;
  /** Moves by whole seconds. */
  advance(seconds: number): void;
}

export function createServiceClock(startMs: number): ServiceClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (seconds) => {
      current += seconds * 1000;
    },
  };
}

export interface LicenceServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly clock: ServiceClock;
  /** Verdict requests (POST or not, `/api/licence` or `/api/license`) that reached the server. */
  calls(): number;
  /** Delay, in milliseconds, before each verdict request is handled. */
  setDelay(ms: number): void;
  /**
   * Holds every verdict request from now on (counted, not handled) until the returned function is
   * called: a call kept out for as long as a test needs, whatever the machine's load.
   */
  hold(): () => void;
  /** An authorised admin call that must succeed: its JSON answer. */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** A product, then a buyer key for it (1 site unless told): the key. */
  issueKey(
    produit: string,
    options?: { readonly sites?: number; readonly kind?: 'buyer' | 'trial' | 'dev' },
  ): Promise<string>;
  /** Every JSON log line the server wrote. */
  readonly lines: string[];
  close(): Promise<void>;
}

export async function startLicenceServer(options: { readonly clockStartMs: number }): Promise<LicenceServer> {
  const dir = mkdtempSync(join(tmpdir(), 'licence-client-server-'));
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(line);
      callback();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const store = openSqliteStore({ file: join(dir, 'licence.db'), logger });
  const clock = createServiceClock(options.clockStartMs);
  const adminToken = randomBytes(24).toString('base64url');
  const service = createService({
    store,
    rateLimiter: createMemoryRateLimiter(),
    clock,
    signer: createNodeSigner(TEST_SEED),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    adminToken,
  });
  const handler = createApp({ service, logger }).callback();
  let calls = 0;
  let delayMs = 0;
  let held: (() => void)[] | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/api/licen') === true) {
      calls += 1;
      if (held !== null) {
        held.push(() => void handler(request, response));
        return;
      }
      if (delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void handler(request, response);
        }, delayMs);
        timers.add(timer);
        return;
      }
    }
    void handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server is not listening on TCP');
  const url = `http://127.0.0.1:${address.port}`;

  const admin = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed: unknown = await response.json();
    if (!response.ok || typeof parsed !== 'object' || parsed === null)
      throw new Error(`${path}: ${response.status} ${JSON.stringify(parsed)}`);
    return parsed as Record<string, unknown>;
  };
  const products = new Set<string>();
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    clock,
    calls: () => calls,
    setDelay: (ms) => {
      delayMs = ms;
    },
    hold: () => {
      const queue: (() => void)[] = [];
      held = queue;
      return () => {
        if (held === queue) held = null;
        for (const handle of queue.splice(0)) handle();
      };
    },
    admin,
    issueKey: async (produit, keyOptions = {}) => {
      if (!products.has(produit)) {
        await admin('POST', '/admin/products', { id: produit, author: 'atelier', name: produit });
        products.add(produit);
      }
      const kind = keyOptions.kind ?? 'buyer';
      const issued = await admin('POST', '/admin/keys', {
        produit,
        kind,
        ...(kind === 'buyer' ? { sites: keyOptions.sites ?? 1 } : {}),
        ...(kind === 'trial' ? { expire: new Date(clock.now() + 30 * 86_400_000).toISOString() } : {}),
      });
      if (typeof issued.cle !== 'string') throw new Error('no key issued');
      return issued.cle;
    },
    lines,
    close: () => {
      closing ??= (async () => {
        for (const timer of timers) clearTimeout(timer);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
