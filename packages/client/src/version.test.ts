import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRateLimiter, createNodeSigner, createService } from '@licence/service';
import type { Service } from '@licence/service';
import { openSqliteStore } from '@licence/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import manifest from '../package.json';
import { CLIENT_VERSION, defaultUserAgent } from './version.js';

/**
 * The real service on a throwaway SQLite file: its answer to a verdict request sent with a
 * User-Agent says whether the filter of docs/protocol.md#user-agent-filter refused it (403
 * `user-agent-blocked`, checked before the body: an empty object goes no further than its 400).
 */
let dir = '';
let service: Service;
let closeStore: () => Promise<void> = async () => undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-client-ua-'));
  const store = openSqliteStore({ file: join(dir, 'licence.db') });
  closeStore = () => store.close();
  service = createService({
    store,
    rateLimiter: createMemoryRateLimiter(),
    clock: { now: Date.now },
    signer: createNodeSigner(new Uint8Array(32).fill(7)),
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    random: (length) => new Uint8Array(randomBytes(length)),
  });
});

afterAll(async () => {
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

async function isBlocked(userAgent: string): Promise<boolean> {
  const answer = await service.handle({
    method: 'POST',
    path: '/api/licence',
    headers: { 'user-agent': userAgent, 'content-type': 'application/json' },
    body: new TextEncoder().encode('{}'),
    ip: '192.0.2.1',
  });
  return answer.status === 403 && answer.body.includes('user-agent-blocked');
}

describe('version and User-Agent', () => {
  it('is the version of package.json', () => {
    expect(CLIENT_VERSION).toBe(manifest.version);
  });

  it('names the product first, and the service lets it through (docs/protocol.md#user-agent-filter)', async () => {
    expect(defaultUserAgent('mon-theme')).toBe(`mon-theme (@licence/client ${CLIENT_VERSION})`);
    // The filter does refuse a library's default agent: the answers below tell one apart.
    expect(await isBlocked('node')).toBe(true);
    // Even products named like the libraries whose default agents are refused.
    for (const produit of ['mon-theme', 'node', 'curl', 'undici', 'axios', 'java', 'bun', 'deno']) {
      expect(await isBlocked(defaultUserAgent(produit)), produit).toBe(false);
    }
  });
});
