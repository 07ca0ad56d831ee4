<?php
/**
 * "Never break": no input from the environment makes the client throw or print a PHP notice,
 * warning or deprecation (docs/protocol.md#clients, #cache, #states, #hosts-in-clients). Each
 * case runs with error_reporting(E_ALL) and an error handler that records every message, and
 * asserts it recorded nothing; valide() answers by protocol.md#states, etat() says which state,
 * and the client writes exactly one error_log line saying why, without the key.
 *
 * Faults staged in this process (they also run under php-wasm, where intl and sodium are truly
 * absent): damaged cache files, a cache folder under a regular FILE (mkdir and fopen fail even for
 * root, who ignores permissions), a file-shaped hole where the cache file should be (a folder),
 * and hosts from $_SERVER that cannot be normalised. Faults staged in a child PHP
 * (lib/environment-child.php; Debian's php only, since php-wasm cannot start processes):
 * no intl (`php -n`), no curl with allow_url_fopen off, a full disk (a file-size limit of 0
 * with SIGXFSZ ignored: every write to a regular file fails, as with ENOSPC, and PHP prints the
 * same "fwrite(): Write of N bytes failed" notice), and chmod, flock or error_log listed in
 * disable_functions.
 */

// 25 Crockford characters (no I, L, O or U): a usable key (protocol.md#no-usable-key).
const ENV_KEY = 'ENVRN-MENTT-ESTKE-YABCD-EFGHJ';
/** message('en') when lapsed (messages.json). */
const LAPSED_EN = 'The licence service could not be reached: the product keeps working and will check the licence later.';

/** A verdict signed with the TEST ONLY key (signatures.json "ok with produit"): no sodium needed here. */
function envSigned(): array
{
    foreach (vectorFile('signatures')->cases as $case) {
        if ($case->name === 'ok with produit') {
            return ['donnees' => $case->donnees, 'signature' => $case->signature];
        }
    }
    throw new RuntimeException('signatures.json: no "ok with produit" case');
}

function envOptions(array $more = []): array
{
    // hote, produit: the signed verdict's ("exemple.fr", "mon-theme").
    return $more + [
        'produit' => 'mon-theme',
        'cles_publiques' => vectorFile('signatures')->keys->primary->publicKey,
        // Nothing listens there: every call fails at once (connection refused).
        'url' => function_exists('closedPort') ? closedPort() : 'http://127.0.0.1:1',
        'hote' => 'exemple.fr',
        // Bounds a call where the network hangs instead of refusing (php-wasm's, say).
        'delai' => 2,
    ];
}

/** The cache file of (mon-theme, ENV_KEY, host) in $dir, as Licence::fichierCache() names it. */
function envCacheFile(string $dir, string $hote = 'exemple.fr'): string
{
    $hash = hash('sha256', "licence-php/1\0mon-theme\0" . Licence::normaliserCle(ENV_KEY) . "\0" . $hote);
    return $dir . '/licence-' . substr($hash, 0, 40) . '.json';
}

/** The intact record of the signed verdict, as the client writes it. */
function envRecord(): string
{
    return json_encode(['envelope' => envSigned(), 'failures' => 0, 'retryAt' => 0], JSON_UNESCAPED_SLASHES);
}

/**
 * Runs $fn as a product's page would: error_reporting(E_ALL), every PHP message recorded (not
 * thrown, so the client's own flow is what is tested), error_log to a file.
 *
 * @return array{0: mixed, 1: list<string>, 2: list<string>} [$fn's result, PHP messages, log lines]
 */
function asAPage(callable $fn): array
{
    $log = tempDir('licence-env-log-') . '/error.log';
    $messages = [];
    $oldLog = ini_set('error_log', $log);
    $oldLevel = error_reporting(E_ALL);
    set_error_handler(static function (int $severity, string $message, string $file, int $line) use (&$messages): bool {
        if (!(error_reporting() & $severity)) {
            return false;
        }
        $messages[] = "{$severity}: {$message} at " . basename($file) . ":{$line}";
        return true;
    });
    try {
        $result = $fn();
    } finally {
        restore_error_handler();
        error_reporting($oldLevel);
        ini_set('error_log', $oldLog === false ? '' : $oldLog);
    }
    $lines = is_file($log) ? array_values(array_filter(explode("\n", (string) file_get_contents($log)), static fn ($l) => $l !== '')) : [];
    return [$result, $messages, $lines];
}

/** One log line, containing $needle, and neither the key nor its normalised form. */
function assertOneLogLine(array $lines, string $needle): void
{
    assertSame(1, count($lines), 'error_log lines (' . implode(' | ', $lines) . ')');
    assertContains($needle, $lines[0], 'the log line');
    assertNotContains(ENV_KEY, $lines[0], 'the log line');
    assertNotContains(Licence::normaliserCle(ENV_KEY), $lines[0], 'the log line');
}

/** Runs one page with $_SERVER's host fields replaced, restored afterwards. */
function withServer(array $server, callable $fn): mixed
{
    $saved = $_SERVER;
    unset($_SERVER['HTTP_HOST'], $_SERVER['SERVER_NAME']);
    foreach ($server as $name => $value) {
        $_SERVER[$name] = $value;
    }
    try {
        return $fn();
    } finally {
        $_SERVER = $saved;
    }
}

// --- the buyer's key (protocol.md#no-usable-key: the buyer's input, never a reason to throw) -------

$noKey = [
    'get_option() before any save (false)' => [false, 'sans_cle', 'no licence key entered yet'],
    'null' => [null, 'sans_cle', 'no licence key entered yet'],
    'an empty setting' => ['', 'sans_cle', 'no licence key entered yet'],
    'only spaces and a line break' => ["  \n", 'sans_cle', 'no licence key entered yet'],
    'a number' => [12345, 'sans_cle', 'no licence key entered yet'],
    'an array' => [[ENV_KEY], 'sans_cle', 'no licence key entered yet'],
    'only dashes' => ['-----', 'cle_invalide', 'not a licence key'],
    'a key cut short' => [substr(ENV_KEY, 0, 23), 'cle_invalide', 'not a licence key'],
    'a key with an O' => [str_replace('E', 'O', ENV_KEY), 'cle_invalide', 'not a licence key'],
    'a key pasted past 1024 characters' => [ENV_KEY . str_repeat(' ', 1000), 'cle_invalide', 'not a licence key'],
];
foreach ($noKey as $name => [$cle, $motif, $why]) {
    test("key: {$name}: no_key, valide() false, no call, no file, one log line", static function () use ($cle, $motif, $why): void {
        $dir = tempDir() . '/cache';
        [$licence, $messages, $lines] = asAPage(static function () use ($cle, $dir) {
            // A call would fail and lapse (valide() true): no_key and false say none was made.
            $l = new Licence($cle, $dir, envOptions());
            $l->valide();
            $l->valide();
            return $l;
        });
        assertSame([], $messages, 'PHP messages');
        assertSame(false, $licence->valide(), 'valide');
        assertSame('no_key', $licence->etat(), 'etat');
        assertSame($motif, $licence->verdict()['motif'], 'motif');
        assertSame(false, $licence->essai(), 'essai');
        assertSame(false, file_exists($dir), 'the cache folder, not even created');
        assertOneLogLine($lines, $why);
    });
}
test('key: message() asks for the key, or says what was entered is none (messages.json)', static function (): void {
    $none = new Licence(false, tempDir(), envOptions());
    $wrong = new Licence('1234', tempDir(), envOptions());
    asAPage(static function () use ($none, $wrong) {
        return [$none->valide(), $wrong->valide()];
    });
    assertContains("Aucune clé de licence n'est saisie", $none->message(), 'fr');
    assertContains('No licence key has been entered', $none->message('en'), 'en');
    assertContains("La clé saisie n'est pas une clé de licence", $wrong->message(), 'fr');
    assertContains('The key entered is not a licence key', $wrong->message('en'), 'en');
});
test('key: a host this PHP cannot read does not hide a missing key', static function (): void {
    [$licence, $messages] = asAPage(static function () {
        return withServer(['HTTP_HOST' => 'exemple..fr'], static function () {
            $options = envOptions();
            unset($options['hote']);
            $l = new Licence('', tempDir(), $options);
            $l->valide();
            return $l;
        });
    });
    assertSame([], $messages, 'PHP messages');
    assertSame('no_key', $licence->etat(), 'etat');
    assertSame(false, $licence->valide(), 'valide');
});
test('key: a bad product id or public key still throws at construction, key or not', static function (): void {
    foreach (['', ENV_KEY] as $cle) {
        $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence($cle, tempDir(), envOptions(['produit' => 'Mon Thème'])));
        assertContains('produit: expected', $e->getMessage());
        $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence($cle, tempDir(), envOptions(['cles_publiques' => 'AAAA'])));
        assertContains('cles_publiques[0]: expected canonical padded base64', $e->getMessage());
    }
});

// --- damaged cache files (protocol.md#cache: counts as no file at all) ----------------------------

$emis = 1795342440;
test('cache: an intact file is used (fresh), without a log line (the control of the cases below)', static function () use ($emis): void {
    $dir = tempDir();
    file_put_contents(envCacheFile($dir), envRecord());
    [$licence, $messages, $lines] = asAPage(static function () use ($dir, $emis) {
        $l = new Licence(ENV_KEY, $dir, envOptions(['horloge' => static fn () => $emis + 3600]));
        $l->valide();
        return $l;
    });
    assertSame([], $messages, 'PHP messages');
    assertSame('fresh', $licence->etat(), 'etat');
    assertSame(true, $licence->valide(), 'valide');
    assertSame([], $lines, 'error_log lines');
});

$record = envRecord();
$damaged = [
    'truncated' => substr($record, 0, (int) (strlen($record) / 2)),
    'garbage bytes' => "\x00\xff\xfe garbage \x80\x81",
    'empty' => '',
    'the JSON null' => 'null',
    'a JSON string' => '"licence"',
    'a wrong signature' => str_replace(envSigned()['signature'], base64_encode(str_repeat("\x01", 64)), $record),
    'a signature that is not base64' => str_replace(envSigned()['signature'], '%%%', $record),
    'a verdict edited after signing' => str_replace('"revalider":1795428840', '"revalider":1895428840', $record),
    'failures as a string' => str_replace('"failures":0', '"failures":"0"', $record),
    'retryAt as an array' => str_replace('"retryAt":0', '"retryAt":[]', $record),
    'failures negative' => str_replace('"failures":0', '"failures":-1', $record),
    'failures a float' => str_replace('"failures":0', '"failures":0.5', $record),
    'envelope a number' => json_encode(['envelope' => 5, 'failures' => 0, 'retryAt' => 0]),
    'donnees a string' => json_encode(['envelope' => ['donnees' => 'x', 'signature' => envSigned()['signature']], 'failures' => 0, 'retryAt' => 0]),
    'a list instead of a record' => '[1,2,3]',
    'no retryAt member' => json_encode(['envelope' => envSigned(), 'failures' => 0]),
    'nesting deeper than json_decode takes' => str_repeat('[', 600) . str_repeat(']', 600),
    'over 64 KiB' => $record . str_repeat(' ', 70000),
];
foreach ($damaged as $name => $content) {
    test("cache: a file with {$name} is ignored (lapsed, valide() true), silently for PHP, one log line", static function () use ($content, $emis): void {
        $dir = tempDir();
        $file = envCacheFile($dir);
        file_put_contents($file, $content);
        [$licence, $messages, $lines] = asAPage(static function () use ($dir, $emis) {
            $l = new Licence(ENV_KEY, $dir, envOptions(['horloge' => static fn () => $emis + 3600]));
            $l->valide();
            return $l;
        });
        assertSame([], $messages, 'PHP messages');
        // No usable verdict and a failed call (nothing listens): lapsed, and the product runs.
        assertSame('lapsed', $licence->etat(), 'etat');
        assertSame(true, $licence->valide(), 'valide');
        assertOneLogLine($lines, 'is damaged or not for this site');
        // The damaged file was replaced by the back-off record (protocol.md#back-off).
        $written = json_decode((string) file_get_contents($file), true);
        assertSame(['envelope' => null, 'failures' => 1, 'retryAt' => $emis + 3600 + 300], $written, 'record written');
    });
}

test('cache: a folder where the cache file should be: lapsed, one log line, the back-off kept in memory', static function () use ($emis): void {
    $dir = tempDir();
    mkdir(envCacheFile($dir));
    [$etats, $messages, $lines] = asAPage(static function () use ($dir, $emis) {
        $etats = [];
        foreach ([0, 1] as $i) {
            $l = new Licence(ENV_KEY, $dir, envOptions(['horloge' => static fn () => $emis + 3600]));
            $etats[] = [$l->etat(), $l->valide()];
        }
        return $etats;
    });
    assertSame([], $messages, 'PHP messages');
    assertSame([['lapsed', true], ['lapsed', true]], $etats, 'etat and valide of two instances');
    // The second instance found the back-off in memory: no call, so no write to fail, so no line.
    assertOneLogLine($lines, 'cannot write the cache file in ' . $dir);
    assertSame([], glob($dir . '/*.tmp'), 'temporary files left');
});

// --- an unwritable cache folder ----------------------------------------------------------------

test('cache folder: under a regular file (mkdir and fopen fail, even as root): no throw, lapsed, one log line, back-off in memory', static function () use ($emis): void {
    $file = tempDir() . '/a-file';
    touch($file);
    $dir = $file . '/cache';
    [$etats, $messages, $lines] = asAPage(static function () use ($dir, $emis) {
        $etats = [];
        foreach ([0, 1, 2] as $i) {
            $l = new Licence(ENV_KEY, $dir, envOptions(['horloge' => static fn () => $emis + 3600 + $i]));
            $etats[] = [$l->etat(), $l->valide()];
        }
        return $etats;
    });
    assertSame([], $messages, 'PHP messages');
    assertSame([['lapsed', true], ['lapsed', true], ['lapsed', true]], $etats, 'etat and valide');
    // Only the first instance called and failed to write; the next ones were in back-off.
    assertOneLogLine($lines, 'cannot write in the cache folder ' . $dir);
    assertSame(false, file_exists($dir), 'nothing created');
});

// --- hosts from the environment (protocol.md#hosts-in-clients) --------------------------------

$badHosts = [
    'a space' => 'exa mple.fr',
    'a port out of range' => 'exemple.fr:99999',
    'an unclosed IPv6 bracket' => '[::1',
    'a forbidden character' => 'exemple.fr<script>',
    'bytes that are not UTF-8' => "caf\xe9.fr",
];
foreach ($badHosts as $name => $host) {
    test("host: an HTTP_HOST with {$name} and no SERVER_NAME: no throw, lapsed, no call, one log line without the host", static function () use ($host, $emis): void {
        $dir = tempDir();
        [$licence, $messages, $lines] = asAPage(static fn () => withServer(['HTTP_HOST' => $host], static function () use ($dir, $emis) {
            $options = envOptions(['horloge' => static fn () => $emis]);
            unset($options['hote']);
            $l = new Licence(ENV_KEY, $dir, $options);
            $l->valide();
            return $l;
        }));
        assertSame([], $messages, 'PHP messages');
        assertSame(null, $licence->hote(), 'hote');
        assertSame('lapsed', $licence->etat(), 'etat');
        assertSame(true, $licence->valide(), 'valide');
        assertSame(LAPSED_EN, $licence->message('en'), 'message');
        assertOneLogLine($lines, 'pass the site address as the hote option');
        assertNotContains($host, $lines[0], 'the log line (a visitor wrote the host)');
        assertSame([], glob($dir . '/*'), 'files written (no host: no cache, no call)');
    });
}

test('host: an unusable HTTP_HOST falls back to SERVER_NAME', static function () use ($emis): void {
    $dir = tempDir();
    file_put_contents(envCacheFile($dir), envRecord());
    [$licence, $messages, $lines] = asAPage(static fn () => withServer(['HTTP_HOST' => 'exa mple.fr', 'SERVER_NAME' => 'exemple.fr'], static function () use ($dir, $emis) {
        $options = envOptions(['horloge' => static fn () => $emis]);
        unset($options['hote']);
        $l = new Licence(ENV_KEY, $dir, $options);
        $l->valide();
        return $l;
    }));
    assertSame([], $messages, 'PHP messages');
    assertSame('exemple.fr', $licence->hote(), 'hote');
    assertSame('fresh', $licence->etat(), 'etat');
    assertSame([], $lines, 'error_log lines');
});

test('host: an HTTP_HOST that is not a string is ignored for SERVER_NAME', static function () use ($emis): void {
    [$licence, $messages] = asAPage(static fn () => withServer(['HTTP_HOST' => ['exemple.fr'], 'SERVER_NAME' => 'www.exemple.fr'], static function () use ($emis) {
        $options = envOptions(['horloge' => static fn () => $emis]);
        unset($options['hote']);
        return new Licence(ENV_KEY, tempDir(), $options);
    }));
    assertSame([], $messages, 'PHP messages');
    assertSame('exemple.fr', $licence->hote(), 'hote');
});

/** A Unicode host, in this process: converted with intl; without it (php-wasm), lapsed and logged. */
test('host: a Unicode HTTP_HOST ' . (extension_loaded('intl') ? 'is converted with intl' : 'without intl: no throw, lapsed, one log line'), static function () use ($emis): void {
    [$licence, $messages, $lines] = asAPage(static fn () => withServer(['HTTP_HOST' => 'Café.example'], static function () use ($emis) {
        $options = envOptions(['horloge' => static fn () => $emis]);
        unset($options['hote']);
        $l = new Licence(ENV_KEY, tempDir(), $options);
        $l->valide();
        return $l;
    }));
    assertSame([], $messages, 'PHP messages');
    assertSame(true, $licence->valide(), 'valide');
    if (extension_loaded('intl')) {
        assertSame('xn--caf-dma.example', $licence->hote(), 'hote');
    } else {
        assertSame(null, $licence->hote(), 'hote');
        assertSame('lapsed', $licence->etat(), 'etat');
        assertOneLogLine($lines, 'no intl extension');
    }
});

test('host: a malformed hote option is still the developer\'s mistake (throws at construction)', static function (): void {
    $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence(ENV_KEY, tempDir(), envOptions(['hote' => 'ftp://exemple.fr'])));
    assertContains('hote: scheme must be http or https', $e->getMessage());
    assertNotContains(ENV_KEY, $e->getMessage());
});

// --- faults staged in a child PHP (Debian's php: php-wasm cannot start processes) ----------------

// php-wasm has no processes to start (and no `php -n`, ulimit or fake service): there these cases
// cannot be staged, and say so in one loud line. Debian's php (the package's test, and CI) always
// has proc_open, so they always run there.
if (!function_exists('proc_open') || !is_string(PHP_BINARY) || PHP_BINARY === '' || !is_executable(PHP_BINARY)) {
    file_put_contents('php://stderr', "!!! environment-test: no child PHP can be started here (php-wasm?): the no-intl, no-curl/allow_url_fopen and full-disk cases are NOT run on this line\n");
    return;
}

/**
 * Runs lib/environment-child.php with $phpArgs (after the binary), optionally under a shell
 * prefix, and returns its JSON report plus its stderr lines (the client's error_log lines).
 */
function envChild(array $scenario, array $phpArgs, string $shellPrefix = ''): array
{
    $dir = tempDir('licence-env-child-');
    $scenarioFile = $dir . '/scenario.json';
    file_put_contents($scenarioFile, json_encode($scenario + ['licence' => LICENCE_FILE, 'cle' => ENV_KEY]));
    // "{scenario}" in an argument stands for the scenario's folder (open_basedir must let it be read).
    $phpArgs = array_map(static fn (string $a): string => str_replace('{scenario}', $dir, $a), $phpArgs);
    $command = array_merge([PHP_BINARY], $phpArgs, [__DIR__ . '/lib/environment-child.php', $scenarioFile]);
    if ($shellPrefix !== '') {
        $command = ['/bin/sh', '-c', $shellPrefix . ' exec ' . implode(' ', array_map('escapeshellarg', $command))];
    }
    // Pipes, not files: under a file-size limit of 0 a file would not take a byte.
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    if (!is_resource($process)) {
        fail('cannot start ' . PHP_BINARY);
    }
    Harness::onExit(static fn () => stopProcess($process));
    $stdout = stream_get_contents($pipes[1]);
    $stderr = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $status = proc_close($process);
    $report = json_decode((string) $stdout, true);
    if ($status !== 0 || !is_array($report)) {
        fail("the child PHP failed (exit {$status}): {$stdout} {$stderr}");
    }
    $report['log'] = array_values(array_filter(explode("\n", (string) $stderr), static fn ($l) => $l !== ''));
    return $report;
}

/** `php -n`: no php.ini, so no module: Debian's intl and curl are left out; sodium and json are built in. */
const PHP_BARE = ['-n'];

$childHost = static function (array $server, array $options) use ($emis): array {
    return envChild(['dossier' => tempDir(), 'options' => $options, 'horloge' => $emis, 'server' => $server], PHP_BARE);
};
test('no intl (php -n): a Unicode HTTP_HOST: no throw, no PHP message, lapsed, one log line', static function () use ($childHost): void {
    $options = envOptions();
    unset($options['hote']);
    $r = $childHost(['HTTP_HOST' => 'café.example'], $options);
    assertSame(false, $r['intl'], 'intl in the child');
    assertSame(null, $r['exception'], 'exception');
    assertSame([], $r['errors'], 'PHP messages');
    assertSame([['valide' => true, 'etat' => 'lapsed', 'hote' => null, 'message' => LAPSED_EN]], $r['runs'], 'runs');
    assertOneLogLine($r['log'], "the request's host is non-ASCII and this PHP has no intl extension");
});
test('no intl (php -n): a Unicode hote option is not a mistake of the developer: no throw, lapsed, one log line', static function () use ($childHost): void {
    $r = $childHost([], envOptions(['hote' => 'https://café.example/']));
    assertSame(false, $r['intl'], 'intl in the child');
    assertSame(null, $r['exception'], 'exception');
    assertSame([], $r['errors'], 'PHP messages');
    assertSame('lapsed', $r['runs'][0]['etat'] ?? null, 'etat');
    assertSame(true, $r['runs'][0]['valide'] ?? null, 'valide');
    assertOneLogLine($r['log'], 'the hote option is a non-ASCII host and this PHP has no intl extension');
});
test('no intl (php -n): an ASCII HTTP_HOST works as usual (the control)', static function () use ($childHost): void {
    $options = envOptions();
    unset($options['hote']);
    $r = $childHost(['HTTP_HOST' => 'WWW.Exemple.FR'], $options);
    assertSame([], $r['errors'], 'PHP messages');
    assertSame('exemple.fr', $r['runs'][0]['hote'] ?? null, 'hote');
    // Nothing listens at the url: one failed call, one lapsed, and no log line about the host.
    assertSame('lapsed', $r['runs'][0]['etat'] ?? null, 'etat');
    assertSame([], $r['log'], 'error_log lines');
});

test('no curl and allow_url_fopen off: no connection, no PHP message, lapsed, one log line, back-off written', static function () use ($emis): void {
    $fake = new FakeService('drop');
    try {
        $dir = tempDir();
        $r = envChild(['dossier' => $dir, 'options' => envOptions(['url' => $fake->url]), 'horloge' => $emis, 'instances' => 2], array_merge(PHP_BARE, ['-d', 'allow_url_fopen=0']));
        assertSame([false, false], [$r['curl'], $r['allow_url_fopen']], 'curl and allow_url_fopen in the child');
        assertSame(null, $r['exception'], 'exception');
        assertSame([], $r['errors'], 'PHP messages');
        assertSame([['lapsed', true], ['lapsed', true]], array_map(static fn ($run) => [$run['etat'], $run['valide']], $r['runs']), 'runs');
        assertOneLogLine($r['log'], 'neither the curl extension nor allow_url_fopen is available');
        assertSame(0, $fake->connections(), 'connections to the service');
        // The failed "call" starts the back-off, so the next pages do not even try (protocol.md#back-off).
        assertSame(['envelope' => null, 'failures' => 1, 'retryAt' => $emis + 300], json_decode((string) file_get_contents(envCacheFile($dir)), true), 'record');
        // The control: with allow_url_fopen on, the same child does connect.
        $r = envChild(['dossier' => tempDir(), 'options' => envOptions(['url' => $fake->url]), 'horloge' => $emis], array_merge(PHP_BARE, ['-d', 'allow_url_fopen=1']));
        assertSame([], $r['errors'], 'PHP messages (control)');
        assertSame('lapsed', $r['runs'][0]['etat'] ?? null, 'etat (control: the fake drops the connection)');
        assertSame(1, $fake->connections(), 'connections to the service (control)');
    } finally {
        $fake->stop();
    }
});
test('no curl and allow_url_fopen off: a fresh cached verdict is used as usual, silently', static function () use ($emis): void {
    $dir = tempDir();
    file_put_contents(envCacheFile($dir), envRecord());
    $r = envChild(['dossier' => $dir, 'options' => envOptions(), 'horloge' => $emis + 60], array_merge(PHP_BARE, ['-d', 'allow_url_fopen=0']));
    assertSame([], $r['errors'], 'PHP messages');
    assertSame('fresh', $r['runs'][0]['etat'] ?? null, 'etat');
    assertSame([], $r['log'], 'error_log lines');
});

// A full disk: `ulimit -f 0` makes every write to a regular file fail (EFBIG; SIGXFSZ ignored so
// the process lives on), with the notice a full disk gives. No mount and no privilege needed.
const FULL_DISK = "trap '' XFSZ; ulimit -f 0;";
test('full disk: a stale verdict is kept (grace), no PHP message, one log line, the file untouched, no second call', static function (): void {
    $signed = envSigned();
    $fake = new FakeService('drop');
    try {
        $dir = tempDir();
        $file = envCacheFile($dir);
        file_put_contents($file, envRecord());
        $before = file_get_contents($file);
        $stale = $signed['donnees']->revalider + 60;
        $r = envChild(['dossier' => $dir, 'options' => envOptions(['url' => $fake->url]), 'horloge' => $stale, 'instances' => 2], [], FULL_DISK);
        assertSame(null, $r['exception'], 'exception');
        assertSame([], $r['errors'], 'PHP messages');
        assertSame([['grace', true], ['grace', true]], array_map(static fn ($run) => [$run['etat'], $run['valide']], $r['runs']), 'runs');
        assertOneLogLine($r['log'], 'cannot write the cache file in ' . $dir);
        // The second page found the back-off in memory: one connection in all.
        assertSame(1, $fake->connections(), 'connections to the service');
        assertSame($before, file_get_contents($file), 'the cache file');
        assertSame([], glob($dir . '/*.tmp'), 'temporary files left');
        // The control: the same child without the limit writes the back-off record.
        envChild(['dossier' => $dir, 'options' => envOptions(['url' => $fake->url]), 'horloge' => $stale], []);
        assertSame(1, json_decode((string) file_get_contents($file), true)['failures'] ?? null, 'failures written (control)');
    } finally {
        $fake->stop();
    }
});

// Shared hosts list functions in disable_functions; since PHP 8 those then do not exist at all,
// and calling one throws an Error.
test('disable_functions=chmod,flock: no PHP message, the back-off is still written, one call for two pages', static function () use ($emis): void {
    $fake = new FakeService('drop');
    try {
        $dir = tempDir();
        $r = envChild(['dossier' => $dir, 'options' => envOptions(['url' => $fake->url]), 'horloge' => $emis, 'instances' => 2], ['-d', 'disable_functions=chmod,flock']);
        assertSame(null, $r['exception'], 'exception');
        assertSame([], $r['errors'], 'PHP messages');
        assertSame([['lapsed', true], ['lapsed', true]], array_map(static fn ($run) => [$run['etat'], $run['valide']], $r['runs']), 'runs');
        // A failed call is the service's fault, not the environment's: no log line.
        assertSame([], $r['log'], 'error_log lines');
        assertSame(1, $fake->connections(), 'connections to the service (the second page is in back-off)');
        assertSame(['envelope' => null, 'failures' => 1, 'retryAt' => $emis + 300], json_decode((string) file_get_contents(envCacheFile($dir)), true), 'record');
    } finally {
        $fake->stop();
    }
});
test('disable_functions=error_log: an unusable HTTP_HOST still never throws', static function () use ($emis): void {
    $options = envOptions();
    unset($options['hote']);
    $r = envChild(['dossier' => tempDir(), 'options' => $options, 'horloge' => $emis, 'server' => ['HTTP_HOST' => 'exa mple.fr']], ['-d', 'disable_functions=error_log']);
    assertSame(null, $r['exception'], 'exception');
    assertSame([], $r['errors'], 'PHP messages');
    assertSame([['lapsed', true]], array_map(static fn ($run) => [$run['etat'], $run['valide']], $r['runs']), 'runs');
    assertSame([], $r['log'], 'error_log lines');
});

test('open_basedir without the cache folder: no PHP message, lapsed, one log line, back-off in memory', static function () use ($emis): void {
    $fake = new FakeService('drop');
    try {
        $dir = tempDir();
        $allowed = implode(PATH_SEPARATOR, [realpath(PACKAGE_DIR), '{scenario}']);
        $r = envChild(['dossier' => $dir, 'options' => envOptions(['url' => $fake->url]), 'horloge' => $emis, 'instances' => 2], ['-d', 'open_basedir=' . $allowed]);
        assertSame(null, $r['exception'], 'exception');
        assertSame([], $r['errors'], 'PHP messages');
        assertSame([['lapsed', true], ['lapsed', true]], array_map(static fn ($run) => [$run['etat'], $run['valide']], $r['runs']), 'runs');
        assertOneLogLine($r['log'], 'cannot write in the cache folder ' . $dir);
        assertSame(1, $fake->connections(), 'connections to the service (the second page is in back-off, in memory)');
        assertSame([], glob($dir . '/*'), 'files written');
    } finally {
        $fake->stop();
    }
});
