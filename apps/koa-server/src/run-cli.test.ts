import { readServiceConfig } from '@licence/service';
import { describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';

/** Runs one command with a captured stdout and stderr and no environment at all. */
async function run(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: {},
    cwd: '/nonexistent',
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

describe('licence token (docs/protocol.md#administration)', () => {
  it('prints one new token on one line, nothing else, and needs no configuration', async () => {
    const first = await run(['token']);
    expect(first).toEqual({ code: EXIT_OK, stdout: expect.stringMatching(/^[A-Za-z0-9_-]{43}\n$/), stderr: '' });
    const token = first.stdout.trimEnd();
    // LICENCE_ADMIN_TOKEN as the server reads it takes the printed token as it is.
    const read = readServiceConfig({ LICENCE_ADMIN_TOKEN: token }, '/', { only: ['adminToken'] });
    expect(read.ok ? { ok: true, value: read.value.adminToken } : read).toEqual({ ok: true, value: token });
    expect((await run(['token'])).stdout).not.toBe(first.stdout);
  });

  it('--json prints {"token": ...}', async () => {
    const { code, stdout, stderr } = await run(['token', '--json']);
    expect(code).toBe(EXIT_OK);
    expect(stderr).toBe('');
    const parsed: unknown = JSON.parse(stdout);
    expect(parsed).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
  });

  it('takes no argument: anything more is a usage error (exit 2, one line)', async () => {
    const { code, stdout, stderr } = await run(['token', 'extra']);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'licence: token: expected no argument, got 1 (usage: pnpm licence token [--json]  (a new LICENCE_ADMIN_TOKEN: 32 random bytes, base64url))\n',
    );
  });

  it('is listed in the usage', async () => {
    const { stdout } = await run(['--help']);
    expect(stdout).toContain('pnpm licence token ');
    expect(stdout).toContain('print a new admin token for LICENCE_ADMIN_TOKEN');
  });
});
