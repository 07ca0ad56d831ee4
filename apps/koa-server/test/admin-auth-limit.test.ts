import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '@licence/http-vector-runner';
import { startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * Failed admin authentications limited per client address (docs/protocol.md#administration), on
 * the Koa server: behind a trusted proxy on loopback, so two clients are two X-Forwarded-For
 * addresses; the server's clock is moved past the window.
 */

const ATTACKER = '198.51.100.7';
const OTHER = '198.51.100.8';

describe('failed admin authentications on the Koa server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: { cidrs: ['loopback'] } });
  });
  afterAll(async () => {
    await server.close();
  });

  const purge = (client: string, token: string) =>
    send(server.url, {
      method: 'POST',
      path: '/admin/purge',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client },
    });

  it('answers 401 ten times, then 429 with Retry-After even to the right token, and logs the address, never a token', async () => {
    const guesses = Array.from({ length: 12 }, (_, n) => `guess-${n}-0123456789abcdefghijklmnopqrstuvwxyz`);
    for (const guess of guesses.slice(0, 10)) expect((await purge(ATTACKER, guess)).status).toBe(401);
    const locked = await purge(ATTACKER, guesses[10] ?? '');
    expect(locked.status).toBe(429);
    expect(locked.headers['content-type']).toBe('application/problem+json');
    expect(locked.headers['retry-after']).toBe('60');
    expect((await purge(ATTACKER, server.adminToken ?? '')).status).toBe(429);
    expect((await purge(OTHER, server.adminToken ?? '')).status).toBe(200);

    server.clock.advance(60);
    expect((await purge(ATTACKER, server.adminToken ?? '')).status).toBe(200);

    const events = server.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event !== undefined);
    expect(events.filter((entry) => entry.event === 'admin-auth-failed')).toHaveLength(10);
    expect(events[0]).toMatchObject({
      level: 40,
      event: 'admin-auth-failed',
      ip: ATTACKER,
      route: 'POST /admin/purge',
    });
    expect(events.filter((entry) => entry.event === 'admin-auth-locked')).toEqual([
      expect.objectContaining({ level: 40, ip: ATTACKER, retryAfter: 60 }),
    ]);
    const text = server.lines.join('\n');
    for (const secret of [...guesses, server.adminToken ?? '']) expect(text).not.toContain(secret);
  });
});
