// The package's `test` script: runs the PHP suite (test/run.php) with the machine's php. Like the
// PostgreSQL tests (issue 4), a machine without php skips it with one loud line outside CI, and
// fails in CI (CI=true), where the PHP suite must run, never skip (.ci/run installs php-cli).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const php = process.env.PHP_BINARY ?? 'php';
const probe = spawnSync(php, ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8' });
if (probe.error !== undefined || probe.status !== 0) {
  const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
  const line = `@licence/client-php: no PHP here (${php}: ${probe.error?.message ?? `exit ${probe.status}`})`;
  if (inCi) {
    console.error(`${line}: the PHP suite must run in CI (.ci/run installs php-cli)`);
    process.exit(1);
  }
  console.warn(`!!! ${line}: the PHP client's tests are SKIPPED. Install php-cli (with curl and intl) to run them.`);
  process.exit(0);
}
const run = spawnSync(php, [fileURLToPath(new URL('../test/run.php', import.meta.url))], { stdio: 'inherit' });
process.exit(run.status ?? 1);
