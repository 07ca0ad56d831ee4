<?php
/**
 * The PHP client's test suite: `php test/run.php [filter]` (the package's `test` script). Ends
 * with the line "N passed, N failed", exits non-zero on any failure, and writes
 * packages/client-php/test-results.json for .ci/run's summary.
 */

declare(strict_types=1);

error_reporting(E_ALL);
ini_set('display_errors', 'stderr');
// A notice or warning anywhere is a failure, not noise.
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if (!(error_reporting() & $severity)) {
        return false;
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
});

require __DIR__ . '/lib/harness.php';
require __DIR__ . '/lib/paths.php';
require LICENCE_FILE;
require __DIR__ . '/lib/server.php';

// Servers, fake services and child processes are stopped however the run ends: normally, on a
// fatal error (shutdown function), or interrupted (Ctrl-C, or a CI timeout's SIGTERM).
register_shutdown_function([Harness::class, 'cleanUp']);
if (function_exists('pcntl_async_signals')) {
    pcntl_async_signals(true);
    foreach ([SIGINT, SIGTERM] as $signal) {
        pcntl_signal($signal, static function (int $signal): void {
            fwrite(STDERR, "interrupted (signal {$signal}): stopping what the tests started\n");
            exit(128 + $signal);
        });
    }
}

// The list of files is test/suite.php's, shared with the php-wasm matrix (test/matrix.php).
$files = array_keys(require __DIR__ . '/suite.php');
foreach ($files as $file) {
    Harness::setFile(basename($file, '-test.php'));
    try {
        require __DIR__ . '/' . $file;
    } catch (Throwable $e) {
        // A file that cannot even load (missing vectors, say) is one failed test, not a crash.
        $message = get_class($e) . ': ' . $e->getMessage();
        test('loading ' . $file, static function () use ($message): void {
            fail($message);
        });
    }
}

$status = Harness::run(PACKAGE_DIR . '/test-results.json', $argv[1] ?? null);
Harness::cleanUp();
exit($status);
