<?php
/**
 * valide() on one PHP line, run by `pnpm --filter @licence/client-php bench:matrix` inside php-wasm
 * (scripts/php-matrix.mjs --bench; also runs alone: `php bench/matrix.php`). PHP 7.2 syntax.
 *
 Two sources of the verdict, in a fresh temporary cache folder per run:
 * - a REAL local licence server, when the runner gives LICENCE_BENCH_URL, LICENCE_BENCH_PRODUCT
 *   and LICENCE_BENCH_KEY (scripts/php-matrix.mjs --bench starts `licence serve` on loopback, one
 *   per line: the rate limit allows 30 calls a minute, docs/protocol.md#rate-limit). The first
 *   valide() then makes the call (curl inside php-wasm), checks the answer and writes the cache
 *   file (docs/protocol.md#states: refreshed);
 * - else a RECORDED signed answer: signatures.json's "ok with produit" (TEST ONLY key), written as
 *   the cache record the client writes, the clock inside its freshness: the first valide() reads
 *   it and checks it (fresh, no call).
 * Then a second instance on the same cache (fresh: read the file, check the signature: what every
 * later request costs), and the Ed25519 verification alone (sodium when present, else the pure-PHP
 * verifier: every php-wasm line). Each figure is the median of RUNS runs. Prints one line
 * "BENCH {json}" for the runner.
 */

error_reporting(E_ALL);
set_error_handler(static function ($severity, $message, $file, $line) {
    throw new ErrorException($message, 0, $severity, $file, $line);
});

require __DIR__ . '/../src/Licence.php';

const RUNS = 15;
$vectors = json_decode(file_get_contents(__DIR__ . '/../../vectors/cases/signatures.json'));
$signed = null;
foreach ($vectors->cases as $case) {
    if ($case->name === 'ok with produit') {
        $signed = $case;
    }
}
if ($signed === null) {
    throw new RuntimeException('signatures.json: no "ok with produit" case');
}
$server = getenv('LICENCE_BENCH_URL');
if (is_string($server) && $server !== '') {
    $key = (string) getenv('LICENCE_BENCH_KEY');
    $options = [
        'produit' => (string) getenv('LICENCE_BENCH_PRODUCT'),
        // The server signs with the TEST ONLY seed (signatures.json).
        'cles_publiques' => $vectors->keys->primary->publicKey,
        'url' => $server,
        'hote' => 'bench.exemple.fr',
    ];
    $expected = 'refreshed';
} else {
    $key = 'BENCH-BENCH-BENCH-BENCH-BENCH';
    $now = $signed->donnees->emis + 60;
    $options = [
        'produit' => $signed->donnees->produit,
        'cles_publiques' => $vectors->keys->primary->publicKey,
        'url' => 'http://127.0.0.1:1',
        'hote' => $signed->donnees->hote,
        'horloge' => static function () use ($now) {
            return $now;
        },
    ];
    $expected = 'fresh';
}
$record = json_encode(['envelope' => ['donnees' => $signed->donnees, 'signature' => $signed->signature], 'failures' => 0, 'retryAt' => 0], JSON_UNESCAPED_SLASHES);
$cacheName = 'licence-' . substr(hash('sha256', "licence-php/1\0" . $options['produit'] . "\0" . Licence::normaliserCle($key) . "\0" . $options['hote']), 0, 40) . '.json';

function median(array $values)
{
    sort($values);
    return $values[intdiv(count($values), 2)];
}

$first = [];
$second = [];
$verify = [];
for ($i = 0; $i < RUNS; $i++) {
    $dir = sys_get_temp_dir() . '/licence-bench-' . bin2hex(random_bytes(6));
    mkdir($dir, 0700);
    if ($expected === 'fresh') {
        file_put_contents($dir . '/' . $cacheName, $record);
    }
    $t = microtime(true);
    $licence = new Licence($key, $dir, $options);
    $ok = $licence->valide();
    $first[] = microtime(true) - $t;
    if ($ok !== true || $licence->etat() !== $expected || !is_file($dir . '/' . $cacheName)) {
        throw new RuntimeException("first valide(): expected {$expected} and a cache file, got " . $licence->etat());
    }
    $t = microtime(true);
    $again = new Licence($key, $dir, $options);
    $ok = $again->valide();
    $second[] = microtime(true) - $t;
    if ($ok !== true || $again->etat() !== 'fresh') {
        throw new RuntimeException('the cached verdict was not used: ' . $again->etat());
    }
    $t = microtime(true);
    $valid = Licence::verifierSignature(base64_decode($signed->signature), $signed->canonical, base64_decode($vectors->keys->primary->publicKey));
    $verify[] = microtime(true) - $t;
    if ($valid !== true) {
        throw new RuntimeException('the recorded signature does not verify');
    }
    foreach (scandir($dir) as $entry) {
        if ($entry !== '.' && $entry !== '..') {
            unlink($dir . '/' . $entry);
        }
    }
    rmdir($dir);
}

echo 'BENCH ' . json_encode([
    'php' => PHP_VERSION,
    'source' => $expected === 'refreshed' ? 'local licence server' : 'recorded answer',
    'verifier' => function_exists('sodium_crypto_sign_verify_detached') ? 'sodium' : 'pure PHP',
    'runs' => RUNS,
    'firstMs' => round(median($first) * 1000, 2),
    'secondMs' => round(median($second) * 1000, 2),
    'verifyMs' => round(median($verify) * 1000, 2),
]) . "\n";
