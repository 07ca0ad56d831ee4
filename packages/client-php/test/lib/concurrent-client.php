<?php
/**
 * One of the PHP processes of the concurrency test: waits at a barrier so that all start
 * together, runs valide() once, and prints {"valide": bool, "etat": string}.
 *
 *   LICENCE_TEST_CLE=... php concurrent-client.php CONFIG_JSON_FILE ID
 *
 * The key comes from the environment, not the command line, so it never shows in a process list.
 */

require __DIR__ . '/../../src/Licence.php';

$config = json_decode((string) file_get_contents($argv[1]), true);
$id = $argv[2];
touch($config['barrier'] . '/ready-' . $id);
$deadline = microtime(true) + 30;
while (!is_file($config['barrier'] . '/go')) {
    if (microtime(true) > $deadline) {
        fwrite(STDERR, "barrier: no go after 30 s\n");
        exit(2);
    }
    usleep(500);
}
$maintenant = $config['now'];
$options = $config['options'];
$options['horloge'] = static fn () => $maintenant;
$licence = new Licence((string) getenv('LICENCE_TEST_CLE'), $config['dir'], $options);
echo json_encode(['valide' => $licence->valide(), 'etat' => $licence->etat()]), "\n";
