import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createNodeSigner, createService } from '@licence/service';
import { createMemoryStore } from '@licence/store-memory';
import type { RateLimiter } from '@licence/service';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { createWorkerRateLimiter } from './worker-rate-limiter.js';

/**
 * The worker's rate limiter against a real primary: a forked process running the built
 * createPrimaryRateLimiter (test/primary-rate-limiter-child.mjs), over Node's real IPC channel.
 */

const CHILD = fileURLToPath(new URL('../test/primary-rate-limiter-child.mjs', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function primary(mode: 'answer' | 'silent' | 'failing'): Promise<ChildProcess> {
  const child = fork(CHILD, [mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return child;
}

/** How many hit messages the primary received so far. */
function messagesReceived(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      const count = (message as { type?: string; messages?: number }).messages;
      if ((message as { type?: string }).type !== 'count' || count === undefined) return;
      child.off('message', onMessage);
      resolve(count);
    };
    child.on('message', onMessage);
    child.send({ type: 'count' });
  });
}

const NOW = 1_800_000_000_000;

describe('createWorkerRateLimiter (docs/protocol.md#rate-limit across workers)', () => {
  it('counts through the primary: 30 accepted per client, the rest refused with Retry-After, in one message per turn', async () => {
    const child = await primary('answer');
    const limiter = createWorkerRateLimiter(child);
    const verdicts = await Promise.all(Array.from({ length: 35 }, (_, i) => limiter.hit('198.18.0.1', NOW + i)));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(30);
    // The 31st..35th: refused until the first (NOW) leaves the 60 s window, 60 s minus 30 ms, rounded up.
    expect(verdicts.slice(30)).toEqual(Array.from({ length: 5 }, () => ({ allowed: false, retryAfter: 60 })));
    expect(await messagesReceived(child)).toBe(1);
    // Another client, another turn: its own window, its own message, its own answer.
    expect(await limiter.hit('198.18.0.2', NOW + 100)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('198.18.0.1', NOW + 60_000)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await messagesReceived(child)).toBe(3);
  });

  it('rejects when the primary does not answer in time', async () => {
    const limiter = createWorkerRateLimiter(await primary('silent'), { timeoutMs: 50 });
    await expect(limiter.hit('c', NOW)).rejects.toThrow('the primary process did not answer within 50 ms');
  });

  it("rejects with the primary's reason when its limiter fails", async () => {
    const limiter = createWorkerRateLimiter(await primary('failing'));
    await expect(limiter.hit('c', NOW)).rejects.toThrow("the primary's rate limiter failed: disk on fire");
  });

  it('rejects the hits in flight when the channel closes, and every hit after', async () => {
    const child = await primary('silent');
    const limiter = createWorkerRateLimiter(child, { timeoutMs: 60_000 });
    const inFlight = limiter.hit('c', NOW);
    await new Promise((resolve) => setImmediate(resolve));
    child.disconnect();
    await expect(inFlight).rejects.toThrow('the channel to the primary process is closed');
    await expect(limiter.hit('c', NOW)).rejects.toThrow('the channel to the primary process is closed');
  });

  it('a limiter that fails makes the service answer 503 service-unavailable, never a signed refusal', async () => {
    const limiter: RateLimiter = createWorkerRateLimiter(await primary('silent'), { timeoutMs: 50 });
    const { logger } = captureLogs();
    const service = createService({
      store: createMemoryStore(),
      rateLimiter: limiter,
      clock: { now: () => NOW },
      signer: createNodeSigner(new Uint8Array(32).fill(3)),
      logger,
      random: (length) => new Uint8Array(randomBytes(length)),
    });
    const response = await service.handle({
      method: 'POST',
      path: '/api/licence',
      headers: { 'user-agent': 'MonTheme/2.1', 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ cle: 'x', url: 'exemple.fr' })),
      ip: '198.18.0.9',
    });
    expect(response.status).toBe(503);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.body).toContain('service-unavailable');
  });
});
