import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * vitest globalSetup: the CLI tests run `node dist/cli.js` as a child process, the way users run
 * it, so dist must match the sources. Building here means the suite never depends on a manual
 * build step (CONTRIBUTING.md#testing). tsup takes a few seconds.
 */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
