import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJson } from './serve-processes.js';

/**
 * docs/protocol.md#the-licence-cli: `pnpm licence serve` runs the root package.json's `licence` script
 * as pnpm runs every script, `sh -c '<script> serve'`, and on SIGTERM pnpm signals that child and
 * waits for it. The script `exec`s node, so the child is the server itself: it drains and exits 0.
 * Without `exec` the shell takes the signal and dies, and the server goes on, orphaned. This runs
 * the script exactly as pnpm does (pnpm itself is not needed for it).
 */

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cwd = mkdtempSync(join(tmpdir(), 'licence-root-script-'));

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

function rootScript(): string {
  const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const script = manifest.scripts.licence;
  if (script === undefined) throw new Error('the root package.json has no licence script');
  return script;
}

describe('the root `licence` script under SIGTERM', () => {
  it('hands the signal to the server: it drains, logs that it stopped and exits 0', async () => {
    const child = spawn('/bin/sh', ['-c', `${rootScript()} serve`], {
      cwd: repository,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '0', LICENCE_DATA_DIR: join(cwd, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that a server left behind by a failure is still stopped below.
      detached: true,
    });
    const logs: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean)));
    let stderr = '';
    const listening = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/listening on http:\/\/\S+\n/.test(stderr)) resolve();
      }),
    );
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      await listening;
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(logs.map((line) => parseJson(line).msg)).toContain('licence service stopped');
    } finally {
      stopGroup(child.pid);
    }
  });
});

/** Kills what is left of the process group `pid` leads; none left (ESRCH) is the expected case. */
function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}
