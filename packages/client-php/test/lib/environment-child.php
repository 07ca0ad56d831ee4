<?php
/**
 * One page of a product, in a child PHP whose environment the parent chose (environment-test.php):
 * `php -n` (no intl, no curl), `-d allow_url_fopen=0`, or a file-size limit of 0 (every write to
 * a regular file fails, as on a full disk). It builds the client as a product would, records every
 * PHP notice, warning or deprecation the way a page's error handler does (respecting @), and
 * prints what happened as JSON on stdout. The client's error_log lines go to stderr (a pipe: a
 * file would not take a byte under the size limit).
 *
 *     php environment-child.php <scenario.json>
 *
 * scenario: {licence, cle, dossier, options, horloge, server (for $_SERVER), instances}
 */

error_reporting(E_ALL);
ini_set('display_errors', '0');
ini_set('log_errors', '0');
$errors = [];
set_error_handler(static function (int $severity, string $message, string $file, int $line) use (&$errors): bool {
    if (!(error_reporting() & $severity)) {
        return false;
    }
    $errors[] = "{$severity}: {$message} at " . basename($file) . ":{$line}";
    return true;
});

$scenario = json_decode((string) file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
require $scenario['licence'];
unset($_SERVER['HTTP_HOST'], $_SERVER['SERVER_NAME']);
foreach ($scenario['server'] ?? [] as $name => $value) {
    $_SERVER[$name] = $value;
}
$now = $scenario['horloge'];
$options = $scenario['options'] + ['horloge' => static fn () => $now];

$runs = [];
$exception = null;
try {
    for ($i = 0; $i < ($scenario['instances'] ?? 1); $i++) {
        $licence = new Licence($scenario['cle'], $scenario['dossier'], $options);
        $runs[] = ['valide' => $licence->valide(), 'etat' => $licence->etat(), 'hote' => $licence->hote(), 'message' => $licence->message('en')];
    }
} catch (Throwable $e) {
    $exception = get_class($e) . ': ' . $e->getMessage();
}
echo json_encode([
    'php' => PHP_VERSION,
    'intl' => extension_loaded('intl'),
    'curl' => extension_loaded('curl'),
    'allow_url_fopen' => (bool) ini_get('allow_url_fopen'),
    'runs' => $runs,
    'errors' => $errors,
    'exception' => $exception,
]);
