import { describe, expect, it } from 'vitest';
import { createHarness, createTestClock, createTestLogger, TEST_SEED } from '../../test/harness.js';
import { handleHealth } from './healthz.js';
import { createMemoryRateLimiter } from '../ports/index.js';
import { createMemoryStore } from '@licence/store-memory';
import { createNodeSigner } from '../ports/index.js';
import { createNodeVerifier } from '../ports/index.js';
import type { Store } from '../ports/index.js';
import { HttpError } from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest } from '../http/index.js';
import { DEFAULT_BLOCKED_USER_AGENTS } from '../verdict/index.js';

const probe = (method = 'GET'): ServiceRequest => ({
  method,
  path: '/healthz',
  headers: {},
  body: new Uint8Array(0),
  ip: '10.0.0.1',
});

function contextWith(store: Store): ServiceContext & { logger: ReturnType<typeof createTestLogger> } {
  return {
    store,
    rateLimiter: createMemoryRateLimiter(),
    clock: createTestClock(),
    signer: createNodeSigner(TEST_SEED),
    verifier: createNodeVerifier(createNodeSigner(TEST_SEED).publicKey),
    logger: createTestLogger(),
    random: () => new Uint8Array(25),
    settings: undefined,
    trust: undefined,
    blockedUserAgents: DEFAULT_BLOCKED_USER_AGENTS,
    adminTokenHash: null,
    publicUrl: null,
    buyerTransfersPer30Days: 3,
  };
}

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok","store":"up"}, with no User-Agent and past the rate limit', async () => {
    const { service } = createHarness({ limit: 1 });
    for (let i = 0; i < 5; i += 1) {
      const response = await service.handle(probe());
      expect(response.status).toBe(200);
      expect(response.body).toBe('{"status":"ok","store":"up"}');
      expect(response.headers).toEqual({
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    }
  });

  it('answers 503 {"status":"error","store":"down"} when the store fails, and warns', async () => {
    const store = createMemoryStore();
    await store.close();
    const context = contextWith(store);
    const response = await handleHealth(context, probe());
    expect(response.status).toBe(503);
    expect(response.body).toBe('{"status":"error","store":"down"}');
    expect(context.logger.lines.map((line) => line.level)).toEqual(['warn']);
  });

  it('answers 503 when the store does not answer in time', async () => {
    const store: Store = { ...createMemoryStore(), ping: () => new Promise<void>(() => {}) };
    const response = await handleHealth(contextWith(store), probe(), 20);
    expect(response.status).toBe(503);
  });

  it('takes GET and HEAD only', async () => {
    const context = contextWith(createMemoryStore());
    expect((await handleHealth(context, probe('HEAD'))).status).toBe(200);
    await expect(handleHealth(context, probe('POST'))).rejects.toBeInstanceOf(HttpError);
    const { service } = createHarness();
    const response = await service.handle(probe('POST'));
    expect(response.status).toBe(405);
    expect(response.headers.Allow).toBe('GET, HEAD');
  });
});
