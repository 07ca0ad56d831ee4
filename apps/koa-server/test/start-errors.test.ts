import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-process.js';

/**
 * `licence serve` refusing to start (docs/protocol.md#configuration): one stderr line naming the
 * variable at fault, exit code 1, in bounded time. (DATABASE_URL to a closed port: cli.test.ts.)
 */

const root = mkdtempSync(join(tmpdir(), 'licence-start-'));

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

interface Outcome {
  readonly code: number | null;
  /** The signal that ended it: SIGKILL means it had to be killed (it hung). */
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/**
 * `licence serve` in a fresh folder with only these variables. A start that hangs is killed with
 * SIGKILL after 10 s (the hang this file guards against ignored SIGTERM) and fails the test.
 */
function serve(env: Record<string, string>): Promise<Outcome> {
  const cwd = mkdtempSync(join(root, 'case-'));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'serve'],
      {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '0', ...env },
        timeout: 10_000,
        killSignal: 'SIGKILL',
      },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, signal: error?.signal ?? null, stderr });
      },
    );
  });
}

describe('licence serve: start errors name the variable and never hang', () => {
  it('HOST that is no address of this machine names HOST, not PORT', async () => {
    // 192.0.2.1: TEST-NET-1 (RFC 5737), never a local address; the audit used 8.8.8.8.
    const outcome = await serve({ HOST: '192.0.2.1' });
    expect(outcome).toEqual({
      code: 1,
      signal: null,
      stderr: 'licence: HOST: cannot listen on 192.0.2.1:0 (EADDRNOTAVAIL)\n',
    });
  });

  it('LICENCE_DATA_DIR under /proc: one line at once (a recursive mkdir spun there for ever)', async () => {
    const outcome = await serve({ LICENCE_DATA_DIR: '/proc/licence-nope' });
    expect(outcome).toEqual({
      code: 1,
      signal: null,
      stderr: 'licence: LICENCE_DATA_DIR: cannot create /proc/licence-nope (ENOENT)\n',
    });
  });

  it('LICENCE_DATA_DIR below a file, and LICENCE_DATA_DIR that is a file: one line each', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    expect(await serve({ LICENCE_DATA_DIR: join(file, 'data') })).toEqual({
      code: 1,
      signal: null,
      stderr: `licence: LICENCE_DATA_DIR: ${join(file, 'data')} cannot be created: ${file} is not a directory\n`,
    });
    expect(await serve({ LICENCE_DATA_DIR: file })).toEqual({
      code: 1,
      signal: null,
      stderr: `licence: LICENCE_DATA_DIR: ${file} exists and is not a directory\n`,
    });
  });

  it('LICENCE_MAX_CONNECTIONS above the open-file limit stops the start before anything is created', async () => {
    const dataDir = join(root, 'never-created');
    const outcome = await serve({ LICENCE_MAX_CONNECTIONS: '999999999', LICENCE_DATA_DIR: dataDir });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /^licence: LICENCE_MAX_CONNECTIONS: 999999999 is above what this process may open: at most \d+ \(open-file limit \d+ minus 256 kept for the database and files and 32 for webhook attempts, LICENCE_WEBHOOK_CONCURRENCY\); lower it or raise the limit \(ulimit -n\)\n$/,
    );
    expect(() => statSync(dataDir)).toThrow();
  });

  it('LICENCE_MAX_CONNECTIONS_PER_IP that is not a positive integer: one line', async () => {
    expect(await serve({ LICENCE_MAX_CONNECTIONS_PER_IP: '0' })).toEqual({
      code: 1,
      signal: null,
      stderr: 'licence: LICENCE_MAX_CONNECTIONS_PER_IP: expected a positive integer (at most 9 digits), got "0"\n',
    });
  });
});
