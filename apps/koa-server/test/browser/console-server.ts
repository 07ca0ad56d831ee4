import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCT_UA } from '@licence/http-vector-runner';
import { newAdminToken } from '../../src/admin-token.js';

/**
 * The real server as a user starts it, `node apps/koa-server/bin/licence.mjs serve`, in a child
 * process on a free loopback port, with a temporary data folder (the embedded SQLite file and
 * signing key) and an operator token, so the admin API and the console are on
 * (docs/protocol.md#console).
 */

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'licence.mjs');
const START_TIMEOUT_MS = 20_000;

export interface ConsoleServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** LICENCE_ADMIN_TOKEN: 43 characters of base64url. */
  readonly operatorToken: string;
  /** Everything the process wrote (stdout then stderr chunks), for the log hygiene check. */
  readonly output: string[];
  /** SIGTERM, wait for the exit, remove the data folder; the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `env`: more variables for the process, on top of those above (`LICENCE_WEBHOOK_ALLOW_PRIVATE=1`
 * for a receiver on loopback, docs/protocol.md#webhooks).
 */
export async function startConsoleServer(env: Readonly<Record<string, string>> = {}): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'licence-console-'));
  const operatorToken = newAdminToken();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: dataDir,
    // Only what the test gives (plus PATH): the host's variables never leak in.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: '0',
      LICENCE_DATA_DIR: dataDir,
      LICENCE_ADMIN_TOKEN: operatorToken,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const code = await exited;
    rmSync(dataDir, { recursive: true, force: true });
    return code;
  };
  try {
    const url = await listeningUrl(child, output);
    await waitForHealth(url);
    return { url, operatorToken, output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The URL of the banner's first line (startup-banner.ts), once printed on stderr. */
function listeningUrl(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`licence serve printed no URL in ${START_TIMEOUT_MS} ms:\n${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      output.push(chunk.toString());
      const url = /listening on (http:\/\/\S+)\n/.exec(stderr)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`licence serve exited with ${String(code)} before listening:\n${stderr}`));
    });
  });
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      (error: unknown) => String(error),
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url}/healthz did not answer 200 (last: ${String(status)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ApiAnswer {
  readonly status: number;
  /** The parsed JSON body, or null for an empty one (204). */
  readonly body: Record<string, unknown> | null;
}

/** The admin API with a Bearer token (operator or author), as the console calls it. */
export async function admin(
  server: ConsoleServer,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<ApiAnswer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

/** The admin API call that must succeed: its JSON body, or an error naming the status. */
export async function adminOk(
  server: ConsoleServer,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await admin(server, token, method, path, body);
  if (answer.status >= 300 || answer.body === null) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/**
 * A verdict asked as a product asks it (docs/protocol.md#request): a product User-Agent, the JSON
 * body {cle, url}. The parsed answer, whatever its status.
 */
export async function askVerdict(server: ConsoleServer, cle: string, url: string): Promise<ApiAnswer> {
  const response = await fetch(`${server.url}/api/licence`, {
    method: 'POST',
    headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json' },
    body: JSON.stringify({ cle, url }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
