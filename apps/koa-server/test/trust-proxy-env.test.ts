import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe } from './cli-process.js';

/**
 * docs/protocol.md#client-address, #configuration: `TRUST_PROXY` from the environment reaches the
 * running server. `licence serve` is started as users start it (a child process, dist/cli.js) with
 * `TRUST_PROXY=1`: the loopback peer is then one trusted hop, so the rate limit (30 per client in
 * 60 s) counts the address in `X-Forwarded-For`, not the socket's.
 */

const root = mkdtempSync(join(tmpdir(), 'licence-trust-proxy-'));

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function status(url: string, forwardedFor: string): Promise<number> {
  const response = await fetch(`${url}/api/licence`, {
    method: 'POST',
    headers: { 'User-Agent': 'MonTheme/2.1', 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
    body: JSON.stringify({ cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', url: 'exemple.fr' }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('TRUST_PROXY=1 given to `licence serve`', () => {
  it('counts each forwarded client apart: 30 from one, then another is 200 and the first is 429', async () => {
    const serve = await spawnServe({ cwd: root, env: { TRUST_PROXY: '1' } });
    try {
      const answers: number[] = [];
      for (let i = 0; i < 30; i += 1) answers.push(await status(serve.url, '198.51.100.1'));
      expect(answers).toEqual(Array.from({ length: 30 }, () => 200));
      expect(await status(serve.url, '198.51.100.2')).toBe(200);
      expect(await status(serve.url, '198.51.100.1')).toBe(429);
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });
});

describe('the start says what a hop count demands (docs/protocol.md#client-address)', () => {
  it('TRUST_PROXY=1 on loopback: the banner says the server must be reachable only through the proxy, and no warning', async () => {
    const serve = await spawnServe({ cwd: root, env: { TRUST_PROXY: '1' } });
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.banner).toContain('the server must be reachable only through its proxies (1 in front of it)');
    expect(serve.banner).not.toContain('warning:');
    expect(serve.logs.map((line) => JSON.parse(line) as { level: number }).filter((e) => e.level >= 40)).toEqual([]);
  });

  it('TRUST_PROXY=1 with HOST=0.0.0.0: one warning line in the banner and one in the log, naming both and a CIDR list', async () => {
    const serve = await spawnServe({ cwd: root, env: { TRUST_PROXY: '1', HOST: '0.0.0.0' } });
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const warnings = serve.banner.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: TRUST_PROXY=1 is a hop count and HOST=0\.0\.0\.0 is not a loopback address: .*CIDR list/,
      ),
    ]);
    const logged = serve.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.level === 40);
    expect(logged).toEqual([
      expect.objectContaining({ trustProxy: { hops: 1 }, host: '0.0.0.0', msg: expect.stringContaining('CIDR list') }),
    ]);
  });
});
