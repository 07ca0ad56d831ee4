import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs the package's own tsup in `packageRoot` (a folder URL), for a vitest globalSetup whose
 * tests run the built `dist/` as users do: dist then matches the sources, and the suite never
 * depends on a manual build step (CONTRIBUTING.md#testing). tsup takes a few seconds.
 */
export function buildWithTsup(packageRoot: URL): void {
  const root = fileURLToPath(packageRoot);
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
