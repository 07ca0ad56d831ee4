<?php
/**
 * A fake licence service on loopback, run as a child process by the end-to-end tests:
 *
 *   php fake-service.php MODE PORT_FILE COUNT_FILE [ARGUMENT]
 *
 * It listens on 127.0.0.1 (a free port, written to PORT_FILE), appends a line to COUNT_FILE for
 * every connection it accepts, and then, by MODE:
 * - drop:   closes the connection at once, answering nothing (a crashed service);
 * - replay: answers 200 with the body in the file ARGUMENT (an old response, replayed);
 * - slow:   waits ARGUMENT seconds, then answers a correctly signed positive verdict for this very
 *           request (its nonce, produit and url), signed with the TEST ONLY seed in LICENCE_TEST_SEED:
 *           a client that waited long enough would accept it.
 */

require __DIR__ . '/../../src/Licence.php';

[, $mode, $portFile, $countFile] = $argv;
$argument = $argv[4] ?? '';

$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
if ($server === false) {
    fwrite(STDERR, "listen: {$error}\n");
    exit(1);
}
$name = stream_socket_get_name($server, false);
file_put_contents($portFile . '.tmp', substr($name, strrpos($name, ':') + 1));
rename($portFile . '.tmp', $portFile);

while (true) {
    $connection = @stream_socket_accept($server, 3600);
    if ($connection === false) {
        continue;
    }
    file_put_contents($countFile, "connection\n", FILE_APPEND | LOCK_EX);
    if ($mode === 'drop') {
        fclose($connection);
        continue;
    }
    stream_set_timeout($connection, 10);
    $request = readRequest($connection);
    if ($mode === 'replay') {
        respond($connection, 200, (string) file_get_contents($argument));
    } elseif ($mode === 'slow') {
        usleep((int) ((float) $argument * 1e6));
        respond($connection, 200, signedVerdict($request));
    } else {
        respond($connection, 500, '{"title":"unknown fake mode"}');
    }
    fclose($connection);
}

/** The request body (headers skipped), by Content-Length. */
function readRequest($connection): string
{
    $head = '';
    while (!str_contains($head, "\r\n\r\n")) {
        $chunk = fread($connection, 1);
        if ($chunk === false || $chunk === '') {
            return '';
        }
        $head .= $chunk;
    }
    $length = preg_match('/^content-length:\s*([0-9]+)/mi', $head, $m) ? (int) $m[1] : 0;
    $body = '';
    while (strlen($body) < $length) {
        $chunk = fread($connection, $length - strlen($body));
        if ($chunk === false || $chunk === '') {
            break;
        }
        $body .= $chunk;
    }
    return $body;
}

function respond($connection, int $status, string $body): void
{
    // The client may be gone (it timed out): a failed write is expected then, not an error.
    @fwrite($connection, "HTTP/1.1 {$status} X\r\nContent-Type: application/json\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
}

function signedVerdict(string $requestBody): string
{
    $request = json_decode($requestBody, true);
    $now = time();
    $hote = Licence::normaliserHote((string) ($request['url'] ?? ''));
    $donnees = (object) [
        'ok' => true, 'motif' => '', 'domaine' => $hote, 'essai' => false, 'quand' => '',
        'emis' => $now, 'revalider' => $now + 86400, 'sursis' => 2592000, 'hote' => $hote,
        'produit' => (string) ($request['produit'] ?? ''), 'nonce' => (string) ($request['nonce'] ?? ''),
    ];
    $pair = sodium_crypto_sign_seed_keypair(base64_decode((string) getenv('LICENCE_TEST_SEED')));
    $signature = sodium_crypto_sign_detached(Licence::canonique($donnees), sodium_crypto_sign_secretkey($pair));
    return json_encode(['donnees' => $donnees, 'signature' => base64_encode($signature)], JSON_UNESCAPED_SLASHES);
}
