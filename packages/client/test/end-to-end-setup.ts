import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { LicenceOptions } from '../src/licence-options.js';
import { startLicenceServer, TEST_PUBLIC_KEY } from './licence-server.js';
import type { LicenceServer } from './licence-server.js';

/** What the end-to-end tests of test/ share: a day, the product they license, where the clock starts. */
export const DAY = 86_400;
export const PRODUIT = 'mon-theme';
/** Mon, 05 Jan 2026 09:00:00 UTC: the service clock at the start of each test. */
export const START_MS = Date.UTC(2026, 0, 5, 9, 0, 0);

export interface ServerAndFolder {
  readonly server: LicenceServer;
  /** An empty folder of the system's temp folder, for the cache and whatever the test writes. */
  readonly dir: string;
}

/**
 * Before each test of the file: the real server (licence-server.ts) with its clock at START_MS, and
 * an empty folder named from `dirPrefix`, handed to `started`; after each test, both are gone.
 */
export function serverAndFolderEachTest(dirPrefix: string, started: (setup: ServerAndFolder) => void): void {
  let current: ServerAndFolder | undefined;
  beforeEach(async () => {
    const server = await startLicenceServer({ clockStartMs: START_MS });
    current = { server, dir: mkdtempSync(join(tmpdir(), dirPrefix)) };
    started(current);
  });
  afterEach(async () => {
    if (current === undefined) return;
    await current.server.close();
    rmSync(current.dir, { recursive: true, force: true });
  });
}

/** The options of a Licence of PRODUIT on `host`, trusting the TEST ONLY key, asking `server`. */
export function licenceOptions(server: LicenceServer, cacheDir: string, cle: string, host: string): LicenceOptions {
  return { cle, cacheDir, produit: PRODUIT, publicKeys: [TEST_PUBLIC_KEY], url: server.url, host };
}
