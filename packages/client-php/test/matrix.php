<?php
/**
 * The vector tests on one PHP line, run inside php-wasm by scripts/php-matrix.mjs (one
 * interpreter per line, 7.2 to 8.5, the repository mounted from the host): the files test/suite.php
 * marks for the matrix, with the pure-PHP verifier (php-wasm has no sodium) and without intl
 * (docs/protocol.md#hosts-in-clients: a Unicode host is then refused with a clear message, counted
 * apart). Also runs alone on any php: `php test/matrix.php`. PHP 7.2 syntax.
 *
 * Prints the run as test/run.php does, then one last line "MATRIX {json}" for the runner.
 */

declare(strict_types=1);

error_reporting(E_ALL);
ini_set('display_errors', '1');
// A notice or warning anywhere is a failure, not noise.
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if (!(error_reporting() & $severity)) {
        return false;
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
});
// php-wasm's run() is not the CLI SAPI: STDERR is not defined there.
if (!defined('STDERR')) {
    define('STDERR', fopen('php://stderr', 'w'));
}

require __DIR__ . '/lib/harness.php';
require __DIR__ . '/lib/paths.php';
require LICENCE_FILE;
// FakeService and closedPort() for environment-test.php, on the lines its syntax allows (server.php
// is PHP 8.1 syntax: readonly). Nothing there starts before a test asks.
if (PHP_VERSION_ID >= 80100) {
    require __DIR__ . '/lib/server.php';
}

$notRun = [];
foreach (require __DIR__ . '/suite.php' as $file => $where) {
    if ($where !== true && !(is_string($where) && preg_match('/^\d+\.\d+$/', $where) && version_compare(PHP_VERSION, $where, '>='))) {
        $notRun[basename($file, '-test.php')] = is_string($where) && preg_match('/^\d+\.\d+$/', $where) ? "its syntax needs PHP {$where}" : $where;
        continue;
    }
    Harness::setFile(basename($file, '-test.php'));
    try {
        require __DIR__ . '/' . $file;
    } catch (Throwable $e) {
        // A file that cannot load (a parse error on this line, say) is one failed test, not a crash.
        $message = get_class($e) . ': ' . $e->getMessage() . ' (' . basename($e->getFile()) . ':' . $e->getLine() . ')';
        test('loading ' . $file, static function () use ($message): void {
            fail($message);
        });
    }
}

$status = Harness::run(null, isset($argv[1]) ? $argv[1] : null);
Harness::cleanUp();
echo 'MATRIX ' . json_encode(Harness::$summary + [
    'php' => PHP_VERSION,
    'intBits' => PHP_INT_SIZE * 8,
    'sodium' => extension_loaded('sodium'),
    'intl' => extension_loaded('intl'),
    'notRun' => $notRun,
]) . "\n";
exit($status);
