import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SignedEnvelope } from '@licence/core';
import { expect } from 'vitest';
import { parseJson } from './serve-processes.js';

/** Runs the built `licence` CLI (dist/cli.js) as users do: a child process. */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');

/** Everything the child processes of a test file wrote, for the log hygiene check. */
export const allOutput: { stdout: string[]; stderr: string[] } = { stdout: [], stderr: [] };

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A clean environment: only what the test gives (plus PATH), so the host's variables never leak in. */
function environment(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env };
}

export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  return runCommand(process.execPath, [CLI, ...args], options);
}

/** Runs a shell line, e.g. the exact command the server printed. */
export function runShell(line: string, options: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  return runCommand('/bin/sh', ['-c', line], options);
}

function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(file, [...args], { cwd: options.cwd, env: environment(options.env ?? {}) }, (error, stdout, stderr) => {
      allOutput.stderr.push(stderr);
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly publicKey: string;
  /** The banner, as printed on stderr. */
  readonly banner: string;
  /** JSON log lines so far (stdout). */
  readonly logs: string[];
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Resolves when a log line with this `msg` appears. */
  waitForLog(msg: string): Promise<Record<string, unknown>>;
}

/**
 * Starts `licence serve` and resolves once its banner names the URL and the public key. With
 * `openFiles`, under `ulimit -n <openFiles>` (soft and hard: Node cannot raise it again), the shell
 * replaced by node (`exec`), so `child.pid` is the server's.
 */
export function spawnServe(options: {
  cwd: string;
  env?: Record<string, string>;
  openFiles?: number;
}): Promise<ServeProcess> {
  const [file, args] =
    options.openFiles === undefined
      ? [process.execPath, [CLI, 'serve']]
      : ['/bin/sh', ['-c', `ulimit -n ${options.openFiles} && exec "$0" "$@"`, process.execPath, CLI, 'serve']];
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: environment({ PORT: '0', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const waiters: { msg: string; resolve: (entry: Record<string, unknown>) => void }[] = [];
  let stdoutRest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = stdoutRest + chunk.toString();
    const parts = text.split('\n');
    stdoutRest = parts.pop() ?? '';
    for (const line of parts) {
      logs.push(line);
      allOutput.stdout.push(line);
      const entry = JSON.parse(line) as Record<string, unknown>;
      for (const waiter of waiters.filter((w) => w.msg === entry.msg)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitForLog = (msg: string): Promise<Record<string, unknown>> => {
    const seen = logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.msg === msg);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ msg, resolve }));
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      allOutput.stderr.push(chunk.toString());
      const url = /listening on (http:\/\/\S+)\n/.exec(stderr)?.[1];
      const publicKey = /public key \(base64, give it to your products\): (\S+)\n/.exec(stderr)?.[1];
      if (
        url !== undefined &&
        publicKey !== undefined &&
        /admin HTTP API|then check it/.test(stderr) &&
        stderr.endsWith('\n')
      ) {
        resolve({ child, url, publicKey, banner: stderr, logs, exited, waitForLog });
      }
    });
    child.on('exit', (code) =>
      reject(new Error(`licence serve exited with ${String(code)} before listening:\n${stderr}`)),
    );
  });
}

/** The `cle` of a CLI or admin JSON answer, remembered in `used` for the log-hygiene checks. */
export function cleOf(text: string, used: string[]): string {
  const cle = parseJson(text).cle;
  if (typeof cle !== 'string') throw new Error(`no cle in ${text}`);
  used.push(cle);
  return cle;
}

/** A verdict from a running `licence serve`, asked as a product would; it must be a 200. */
export async function verdictFrom(
  url: string,
  body: Record<string, unknown>,
  userAgent: string,
): Promise<SignedEnvelope> {
  const response = await fetch(`${url}/api/licence`, {
    method: 'POST',
    headers: { 'User-Agent': userAgent, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as SignedEnvelope;
}
