<?php
/**
 * A plain test runner (no PHPUnit, so it runs wherever php-cli does): test() registers, run()
 * runs in order, prints every failure and a last line "N passed, N failed", and writes the
 * vitest-shaped test-results.json that .ci/run sums.
 *
 * Test code is PHP 7.2 syntax: the vector files also run on every PHP line 7.2 to 8.5 through
 * php-wasm (scripts/php-matrix.mjs, test/matrix.php); only src/Licence.php must be PHP 5.6.
 * A test that needs what a line lacks (sodium) calls requires(), which skips it with that reason.
 */

final class AssertionFailed extends Exception
{
}

/** Thrown by requires(): the test cannot run on this PHP; its message is the reason, counted apart. */
final class TestSkipped extends Exception
{
}

final class Harness
{
    /** @var list<array{file: string, name: string, fn: callable}> */
    private static $tests = [];
    /** @var string */
    private static $file = '';
    /** @var list<callable> */
    private static $cleanups = [];
    /** @var array{passed: int, failed: int, skipped: array<string, int>, noIntl: int} the last run's counts */
    public static $summary = null;

    public static function setFile(string $file): void
    {
        self::$file = $file;
    }

    public static function add(string $name, callable $fn): void
    {
        foreach (self::$tests as $test) {
            if ($test['file'] === self::$file && $test['name'] === $name) {
                throw new LogicException("duplicate test name in " . self::$file . ": $name");
            }
        }
        self::$tests[] = ['file' => self::$file, 'name' => $name, 'fn' => $fn];
    }

    /** Runs at the end, even after a fatal error (servers, child processes, temp folders). */
    public static function onExit(callable $fn): void
    {
        self::$cleanups[] = $fn;
    }

    public static function cleanUp(): void
    {
        while (self::$cleanups !== []) {
            $fn = array_pop(self::$cleanups);
            try {
                $fn();
            } catch (Throwable $e) {
                fwrite(STDERR, 'cleanup failed: ' . $e->getMessage() . "\n");
            }
        }
    }

    /**
     * @param string|null $resultsFile where to write test-results.json (null: nowhere, the matrix)
     * @return int the exit status
     */
    public static function run(?string $resultsFile, ?string $filter): int
    {
        $passed = 0;
        $failed = 0;
        $skipped = [];
        // The hosts.json `unicode` cases run without intl on the php-wasm lines: counted apart
        // (docs/protocol.md#hosts-in-clients).
        $noIntl = 0;
        $byFile = [];
        $started = microtime(true);
        foreach (self::$tests as $test) {
            $label = $test['file'] . ' > ' . $test['name'];
            if ($filter !== null && stripos($label, $filter) === false) {
                continue;
            }
            if (!isset($byFile[$test['file']])) {
                $byFile[$test['file']] = [0, 0];
            }
            try {
                ($test['fn'])();
                $passed++;
                $byFile[$test['file']][0]++;
                if (strpos($test['name'], '[no intl] ') === 0) {
                    $noIntl++;
                }
            } catch (TestSkipped $e) {
                $reason = $e->getMessage();
                $skipped[$reason] = (isset($skipped[$reason]) ? $skipped[$reason] : 0) + 1;
            } catch (Throwable $e) {
                $failed++;
                $byFile[$test['file']][1]++;
                $where = $e instanceof AssertionFailed ? '' : ' (' . get_class($e) . ' at ' . basename($e->getFile()) . ':' . $e->getLine() . ')';
                echo "FAIL {$label}\n     " . str_replace("\n", "\n     ", $e->getMessage()) . $where . "\n";
            }
        }
        foreach ($byFile as $file => [$p, $f]) {
            printf("  %-28s %4d passed, %d failed\n", $file, $p, $f);
        }
        printf("  (%.1f s)\n", microtime(true) - $started);
        self::$summary = ['passed' => $passed, 'failed' => $failed, 'skipped' => $skipped, 'noIntl' => $noIntl];
        if ($resultsFile !== null) {
            file_put_contents($resultsFile, json_encode([
                'numPassedTests' => $passed,
                'numFailedTests' => $failed,
                'numPendingTests' => array_sum($skipped),
                'numTodoTests' => 0,
            ]) . "\n");
        }
        foreach ($skipped as $reason => $count) {
            echo "  {$count} skipped: {$reason}\n";
        }
        echo "{$passed} passed, {$failed} failed\n";
        return $failed === 0 && $passed > 0 ? 0 : 1;
    }
}

function test(string $name, callable $fn): void
{
    Harness::add($name, $fn);
}

/** @return never */
function fail(string $message)
{
    throw new AssertionFailed($message);
}

/**
 * Skips the running test, with the reason, when this PHP lacks an extension it needs: only the
 * php-wasm lines lack sodium, and Debian's PHP (CI) has every one, so nothing skips there.
 */
function requires(string $extension): void
{
    if (!extension_loaded($extension)) {
        throw new TestSkipped("needs {$extension}, which this PHP lacks");
    }
}

function show($value): string
{
    if (is_string($value)) {
        return strlen($value) > 300 ? json_encode(substr($value, 0, 300)) . '...' : json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
    }
    $json = json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION);
    return $json === false ? var_export($value, true) : $json;
}

function assertSame($expected, $actual, string $what = 'value'): void
{
    if ($expected !== $actual) {
        fail("{$what}: expected " . show($expected) . ', got ' . show($actual));
    }
}

function assertTrue(bool $condition, string $what): void
{
    if (!$condition) {
        fail($what);
    }
}

function assertContains(string $needle, string $haystack, string $what = 'text'): void
{
    if (strpos($haystack, $needle) === false) {
        fail("{$what}: expected to contain " . show($needle) . ', got ' . show($haystack));
    }
}

function assertNotContains(string $needle, string $haystack, string $what = 'text'): void
{
    if (strpos($haystack, $needle) !== false) {
        fail("{$what}: must not contain " . show($needle) . ', got ' . show($haystack));
    }
}

/** Runs $fn and returns the exception of class $class it throws (fails when it throws none). */
function assertThrows(string $class, callable $fn, string $what = 'call'): Throwable
{
    try {
        $fn();
    } catch (Throwable $e) {
        if (!$e instanceof $class) {
            fail("{$what}: expected {$class}, got " . get_class($e) . ': ' . $e->getMessage());
        }
        return $e;
    }
    fail("{$what}: expected {$class}, nothing was thrown");
}

/** Any JSON-like value (stdClass, arrays) with object members sorted: for "member order is not significant" compares. */
function normalized($value)
{
    if ($value instanceof stdClass) {
        $value = get_object_vars($value);
        ksort($value, SORT_STRING);
        return ['{}' => array_map('normalized', $value)];
    }
    if (is_array($value)) {
        if ($value === [] || array_keys($value) === range(0, count($value) - 1)) {
            return array_map('normalized', $value);
        }
        ksort($value, SORT_STRING);
        return ['{}' => array_map('normalized', $value)];
    }
    if (is_float($value) && floor($value) == $value && abs($value) < 2 ** 53) {
        return (int) $value;
    }
    return $value;
}

function assertJsonEquals($expected, $actual, string $what = 'value'): void
{
    if (normalized($expected) !== normalized($actual)) {
        fail("{$what}:\n  expected " . show($expected) . "\n  got      " . show($actual));
    }
}
