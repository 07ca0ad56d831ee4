import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser } from './browser.js';
import { type ConsoleServer, startConsoleServer } from './console-server.js';

/**
 * One server and one browser for a whole test file, started together in beforeAll and stopped in
 * afterAll (a fresh browser context per test keeps the tests apart). `secrets` collects every
 * token and licence key the file handled: afterAll checks that none of them reached the server's
 * output (docs/protocol.md#console: no token in any log line).
 */
export interface ConsoleSuite {
  readonly browser: Browser;
  readonly server: ConsoleServer;
  readonly secrets: { readonly tokens: string[]; readonly keys: string[] };
}

/** `env`: more variables for the server (console-server.ts `startConsoleServer`). */
export function consoleSuite(env: Readonly<Record<string, string>> = {}): ConsoleSuite {
  let browser: Browser | undefined;
  let server: ConsoleServer | undefined;
  // Why one did not start. Each test then fails with it, rather than beforeAll: vitest counts the
  // tests of a failed beforeAll as skipped, and CI's summary must count them as failed.
  const failures: { browser?: unknown; server?: unknown } = {};
  const secrets = { tokens: [] as string[], keys: [] as string[] };
  beforeAll(async () => {
    const [launched, started] = await Promise.allSettled([launchBrowser(), startConsoleServer(env)]);
    if (launched.status === 'fulfilled') browser = launched.value;
    else failures.browser = launched.reason;
    if (started.status === 'fulfilled') {
      server = started.value;
      secrets.tokens.push(server.operatorToken);
    } else failures.server = started.reason;
  });
  afterAll(async () => {
    await browser?.close();
    if (server === undefined) return;
    // An orderly shutdown exits 0 (README "Shutdown").
    expect(await server.stop()).toBe(0);
    const output = server.output.join('');
    for (const secret of [...secrets.tokens, ...secrets.keys]) expect(output.includes(secret)).toBe(false);
  });
  return {
    get browser(): Browser {
      if (browser === undefined) throw failures.browser ?? new Error('the browser is not started yet');
      return browser;
    },
    get server(): ConsoleServer {
      if (server === undefined) throw failures.server ?? new Error('the server is not started yet');
      return server;
    },
    secrets,
  };
}
