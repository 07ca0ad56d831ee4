<?php
/**
 * Benchmark of the PHP client (a report, not a test): `php bench/run.php` (the package's `bench`
 * script, run by `pnpm bench`). Prints one table:
 * - valide() on a fresh cache (new instance each time: constructor, host normalisation, cache file
 *   read, canonical form, Ed25519 check), with sodium and with the pure-PHP verifier;
 * - one Ed25519 verification alone, sodium and pure PHP.
 * Targets: under 1 ms per valide() with sodium, under 50 ms with the pure verifier.
 * The verdict is signed here with the TEST ONLY seed of packages/vectors (never a real key).
 */

require __DIR__ . '/../src/Licence.php';

$vectors = json_decode(file_get_contents(__DIR__ . '/../../vectors/cases/signatures.json'));
$primary = $vectors->keys->primary;
if (!function_exists('sodium_crypto_sign_seed_keypair')) {
    fwrite(STDERR, "bench: the sodium extension is needed to sign the benchmark's verdict\n");
    exit(1);
}
$pair = sodium_crypto_sign_seed_keypair(base64_decode($primary->seed));
$now = time();
$donnees = (object) [
    'ok' => true, 'motif' => '', 'domaine' => 'exemple.fr', 'essai' => false, 'quand' => '',
    'emis' => $now, 'revalider' => $now + 86400, 'sursis' => 2592000, 'hote' => 'boutique.exemple.fr',
    'produit' => 'theme-bench', 'nonce' => 'bench-nonce-0123456789abcdef',
];
$message = Licence::canonique($donnees);
$signature = sodium_crypto_sign_detached($message, sodium_crypto_sign_secretkey($pair));
$publicKey = base64_decode($primary->publicKey);

$dir = sys_get_temp_dir() . '/licence-bench-' . bin2hex(random_bytes(6));
mkdir($dir, 0700);
$options = static fn (string $verification): array => [
    'produit' => 'theme-bench',
    'cles_publiques' => $primary->publicKey,
    'url' => 'http://127.0.0.1:9',
    'hote' => 'www.boutique.exemple.fr',
    'verification' => $verification,
];
// The cache file, written by the client's own rules: one failed call (nothing on port 9) makes
// the file, which then gets the signed verdict.
(new Licence('BENCH-BENCH-BENCH-BENCH-BENCH', $dir, $options('sodium') + ['delai' => 0.5]))->valide();
$files = glob($dir . '/licence-*.json');
file_put_contents($files[0], json_encode(['envelope' => ['donnees' => $donnees, 'signature' => base64_encode($signature)], 'failures' => 0, 'retryAt' => 0]));

/** @return array{float, int} microseconds per operation, iterations */
function measure(callable $fn, float $seconds): array
{
    $fn();
    $n = 0;
    $start = hrtime(true);
    $deadline = $start + (int) ($seconds * 1e9);
    do {
        $fn();
        $n++;
    } while (hrtime(true) < $deadline);
    return [(hrtime(true) - $start) / 1e3 / $n, $n];
}

$rows = [];
foreach (['sodium' => 1.0, 'php' => 3.0] as $verification => $seconds) {
    [$us, $n] = measure(static function () use ($dir, $options, $verification): void {
        $licence = new Licence('BENCH-BENCH-BENCH-BENCH-BENCH', $dir, $options($verification));
        if (!$licence->valide() || $licence->etat() !== 'fresh') {
            throw new RuntimeException('the benchmark cache was not used');
        }
    }, $seconds);
    $rows[] = ["valide(), fresh cache, {$verification}", $us, $n, $verification === 'sodium' ? 1000 : 50000];
}
foreach (['sodium' => 1.0, 'php' => 3.0] as $mode => $seconds) {
    [$us, $n] = measure(static function () use ($signature, $message, $publicKey, $mode): void {
        if (!Licence::verifierSignature($signature, $message, $publicKey, $mode)) {
            throw new RuntimeException('the signature did not verify');
        }
    }, $seconds);
    $rows[] = ["Ed25519 verify alone, {$mode}", $us, $n, $mode === 'php' ? 50000 : null];
}
foreach (glob($dir . '/*') as $file) {
    unlink($file);
}
rmdir($dir);

printf("PHP %s (%s), %d-bit integers, sodium %s\n\n", PHP_VERSION, PHP_OS, PHP_INT_SIZE * 8, defined('SODIUM_LIBRARY_VERSION') ? SODIUM_LIBRARY_VERSION : 'absent');
printf("| %-36s | %12s | %10s | %8s | %-10s |\n", 'operation', 'per call', 'calls/s', 'runs', 'target');
printf("|%s|%s|%s|%s|%s|\n", str_repeat('-', 38), str_repeat('-', 14), str_repeat('-', 12), str_repeat('-', 10), str_repeat('-', 12));
foreach ($rows as [$name, $us, $n, $target]) {
    $per = $us >= 1000 ? sprintf('%.2f ms', $us / 1000) : sprintf('%.1f µs', $us);
    $verdict = $target === null ? '' : ($us < $target ? '< ' : '>= ') . ($target >= 1000 ? ($target / 1000) . ' ms' : $target . ' µs') . ($us < $target ? ' ok' : ' MISSED');
    printf("| %-36s | %12s | %10s | %8d | %-10s |\n", $name, $per, number_format(1e6 / $us, 0, '.', ','), $n, $verdict);
}
