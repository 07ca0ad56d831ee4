// The package's `test` script: runs the PHP suite (test/run.php) with the machine's php, then the
// php-wasm matrix (scripts/php-matrix.mjs). Like the
// PostgreSQL tests, a machine without php skips it with one loud line outside CI, and
// fails in CI (CI=true), where the PHP suite must run, never skip (.ci/run installs php-cli).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const php = process.env.PHP_BINARY ?? 'php';
// What the suite needs besides php itself: curl and intl (both HTTP paths and UTS #46 are tested)
// and Debian's php-parser (the PHP 5.6 syntax check).
const PARSER = '/usr/share/php/PhpParser/autoload.php';
const probe = spawnSync(
  php,
  [
    '-r',
    `echo json_encode(array('curl' => extension_loaded('curl'), 'intl' => extension_loaded('intl'), 'php-parser' => is_file('${PARSER}')));`,
  ],
  { encoding: 'utf8' },
);
let missing;
if (probe.error !== undefined || probe.status !== 0) {
  missing = `no PHP here (${php}: ${probe.error?.message ?? `exit ${probe.status}`})`;
} else {
  const found = JSON.parse(probe.stdout);
  const lacking = Object.keys(found).filter((name) => found[name] !== true);
  if (lacking.length > 0) missing = `PHP lacks ${lacking.join(', ')}`;
}
let status = 0;
if (missing !== undefined) {
  const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
  if (inCi) {
    console.error(
      `@licence/client-php: ${missing}: the PHP suite must run in CI (.ci/run installs php-cli php-curl php-intl php-parser)`,
    );
    process.exit(1);
  }
  console.warn(
    `!!! @licence/client-php: ${missing}: the PHP client's tests on Debian's PHP are SKIPPED. Install php-cli php-curl php-intl php-parser to run them.`,
  );
} else {
  const run = spawnSync(php, [fileURLToPath(new URL('../test/run.php', import.meta.url))], { stdio: 'inherit' });
  status = run.status ?? 1;
}
// Then the vector tests on every PHP line 7.2 to 8.5 through php-wasm (npm packages: they always
// run, in CI and here). LICENCE_PHP_MATRIX=7.4,8.5 picks lines.
const lines = (process.env.LICENCE_PHP_MATRIX ?? '').split(',').filter((line) => line !== '');
const matrix = spawnSync(process.execPath, [fileURLToPath(new URL('./php-matrix.mjs', import.meta.url)), ...lines], {
  stdio: 'inherit',
});
process.exit(status !== 0 ? status : (matrix.status ?? 1));
