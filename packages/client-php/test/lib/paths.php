<?php
/**
 * Where things are: this package, the repository, the shared vectors (packages/vectors/cases)
 * and the third-party ones (packages/vectors/external, in this repository, as
 * packages/vectors/src/external.ts reads them; see packages/vectors/external/README.md).
 */

const PACKAGE_DIR = __DIR__ . '/../..';
const LICENCE_FILE = PACKAGE_DIR . '/src/Licence.php';

function repoRoot(): string
{
    return realpath(PACKAGE_DIR . '/../..');
}

/** One file of packages/vectors/cases, decoded with objects as objects ({} and [] stay apart). */
function vectorFile(string $name): stdClass
{
    $path = repoRoot() . '/packages/vectors/cases/' . $name . '.json';
    $text = file_get_contents($path);
    if ($text === false) {
        throw new RuntimeException("vectors: cannot read {$path}");
    }
    return jsonDecode($text, false, $path);
}

/** json_decode that throws (JSON_THROW_ON_ERROR is PHP 7.3+; the matrix starts at 7.2). */
function jsonDecode(string $text, bool $assoc, string $what)
{
    $value = json_decode($text, $assoc, 512);
    if (json_last_error() !== JSON_ERROR_NONE) {
        throw new RuntimeException("{$what}: " . json_last_error_msg());
    }
    return $value;
}

/** A missing folder is an error, not a skip: these cases must run in CI. */
function externalVectorsDir(): string
{
    $dir = repoRoot() . '/packages/vectors/external';
    if (!is_file($dir . '/sources.json')) {
        throw new RuntimeException("external test vectors not found: expected {$dir} with its sources.json");
    }
    return $dir;
}

function externalJson(string $relativePath)
{
    $text = file_get_contents(externalVectorsDir() . '/' . $relativePath);
    return jsonDecode($text, true, $relativePath);
}

/** A fresh temporary folder, removed when the run ends. */
function tempDir(string $prefix = 'licence-php-'): string
{
    $dir = sys_get_temp_dir() . '/' . $prefix . bin2hex(random_bytes(6));
    mkdir($dir, 0700);
    Harness::onExit(static function () use ($dir) { removeTree($dir); });
    return $dir;
}

function removeTree(string $path): void
{
    if (is_link($path) || is_file($path)) {
        @unlink($path);
        return;
    }
    if (!is_dir($path)) {
        return;
    }
    foreach (scandir($path) as $entry) {
        if ($entry !== '.' && $entry !== '..') {
            removeTree($path . '/' . $entry);
        }
    }
    @rmdir($path);
}

/** The base64 public keys of a vector file to the raw bytes Licence::etape() takes. */
function rawKeys(array $base64Keys): array
{
    return array_map(static function (string $key): string {
        $raw = Licence::decoderBase64($key);
        if ($raw === null || strlen($raw) !== 32) {
            throw new RuntimeException('bad public key in a vector file');
        }
        return $raw;
    }, $base64Keys);
}
