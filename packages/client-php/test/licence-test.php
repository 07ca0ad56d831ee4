<?php
/**
 * The Licence class without a service: configuration errors (clear, never holding the key),
 * messages in French and English for every motif (verdicts signed here with the TEST ONLY seed),
 * the cache file (name, mode, rewrite of a far retryAt, garbage), the single refresher (a held
 * lock means no call), and the instance answering once per request.
 */

const OFFLINE_KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';

function offlinePublicKey(): string
{
    return vectorFile('signatures')->keys->primary->publicKey;
}

/** A client that can reach nothing: any call it makes fails (connection refused). */
function offline(string $dir, int $now, array $options = []): Licence
{
    return new Licence(OFFLINE_KEY, $dir, $options + [
        'produit' => 'theme-boutique',
        'cles_publiques' => offlinePublicKey(),
        'url' => closedPort(),
        'hote' => 'boutique.exemple.fr',
        'horloge' => static fn () => $now,
    ]);
}

/** A verdict signed with the TEST ONLY seed (signatures.json), as the service would sign it. */
function signedEnvelope(array $fields): stdClass
{
    $donnees = (object) ($fields + [
        'ok' => true, 'motif' => '', 'domaine' => 'exemple.fr', 'essai' => false, 'quand' => '',
        'emis' => 1767225600, 'revalider' => 1767312000, 'sursis' => 2592000,
        'hote' => 'boutique.exemple.fr', 'produit' => 'theme-boutique', 'nonce' => 'nonce_d_un-ancien-appel',
    ]);
    $pair = sodium_crypto_sign_seed_keypair(base64_decode(vectorFile('signatures')->keys->primary->seed));
    $signature = sodium_crypto_sign_detached(Licence::canonique($donnees), sodium_crypto_sign_secretkey($pair));
    return (object) ['donnees' => $donnees, 'signature' => base64_encode($signature)];
}

/** The cache file name an offline client uses: made by one failed call, then returned. */
function offlineCacheFile(string $dir, array $options = []): string
{
    $probe = offline($dir, 1767229200, $options);
    assertSame('lapsed', $probe->etat(), 'probe');
    $files = glob($dir . '/licence-*.json');
    assertSame(1, count($files), 'cache files');
    return $files[0];
}

function writeRecord(string $file, ?stdClass $envelope, int $failures = 0, int $retryAt = 0): void
{
    file_put_contents($file, json_encode(['envelope' => $envelope, 'failures' => $failures, 'retryAt' => $retryAt]));
}

// --- configuration errors ----------------------------------------------------------------------

$base = static fn (): array => ['produit' => 'theme-boutique', 'cles_publiques' => offlinePublicKey(), 'url' => 'https://licence.exemple.fr', 'hote' => 'exemple.fr'];
$badOptions = [
    'an unknown option' => [['produits' => 'x'], 'options: unknown option "produits"'],
    'no product' => [['produit' => ''], 'produit: expected [a-z0-9._-]{1,64} (set Licence::PRODUIT or the produit option)'],
    'a product with upper case' => [['produit' => 'Theme'], 'produit: expected [a-z0-9._-]{1,64}'],
    'no public key' => [['cles_publiques' => ''], 'cles_publiques: expected the service public key(s)'],
    'a public key of 31 bytes' => [['cles_publiques' => base64_encode(str_repeat('k', 31))], 'cles_publiques[0]: expected canonical padded base64 of 32 bytes'],
    'a second public key in URL-safe base64' => [['cles_publiques' => [offlinePublicKey(), strtr(offlinePublicKey(), '+/', '-_')]], 'cles_publiques[1]'],
    'no service address' => [['url' => ''], 'url: expected the service address'],
    'an ftp service address' => [['url' => 'ftp://licence.exemple.fr'], 'url: expected the service address'],
    'a host that is not one' => [['hote' => 'ftp://exemple.fr'], 'hote: scheme must be http or https, got ftp'],
    'a language other than fr and en' => [['langue' => 'de'], 'langue: expected "fr" or "en", got "de"'],
    'a User-Agent with a newline' => [['user_agent' => "Theme/1.0\r\nX-Evil: 1"], 'user_agent: expected 1 to 255 printable ASCII characters'],
    'a zero timeout' => [['delai' => 0], 'delai: expected a number of seconds in ]0, 60], got 0'],
    'a timeout as a string' => [['delai' => '6'], 'delai: expected a number of seconds in ]0, 60], got "6"'],
    'a clock that is not callable' => [['horloge' => 42], 'horloge: expected a callable'],
    'an unknown transport' => [['transport' => 'socket'], 'transport: expected "auto", "curl" or "flux", got "socket"'],
    'an unknown verification' => [['verification' => 'openssl'], 'verification: expected "auto", "sodium" or "php", got "openssl"'],
];
foreach ($badOptions as $name => [$options, $message]) {
    test("configuration: {$name} is refused with a clear message", static function () use ($options, $message, $base): void {
        $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence(OFFLINE_KEY, tempDir(), $options + $base()));
        assertContains($message, $e->getMessage(), 'message');
        assertNotContains(str_replace('-', '', OFFLINE_KEY), str_replace('-', '', $e->getMessage()), 'message');
    });
}
// The buyer's key is the buyer's input, not a configuration mistake: it never throws
// (environment-test.php, protocol.md#no-usable-key).
// A cache folder that cannot be created is the host's fault, not a configuration mistake: it no
// longer throws (environment-test.php, protocol.md#cache).
test('configuration: a missing cache folder is created', static function () use ($base): void {
    $dir = tempDir() . '/a/b';
    new Licence(OFFLINE_KEY, $dir, $base());
    assertSame(true, is_dir($dir), 'created');
});
test('configuration: the host comes from HTTP_HOST, else SERVER_NAME, else the hote option is required', static function () use ($base): void {
    $saved = $_SERVER;
    try {
        $options = $base();
        unset($options['hote']);
        $_SERVER['HTTP_HOST'] = 'WWW.Boutique.Exemple.FR:8443';
        assertSame('boutique.exemple.fr', (new Licence(OFFLINE_KEY, tempDir(), $options))->hote(), 'from HTTP_HOST');
        unset($_SERVER['HTTP_HOST']);
        $_SERVER['SERVER_NAME'] = 'exemple.fr';
        assertSame('exemple.fr', (new Licence(OFFLINE_KEY, tempDir(), $options))->hote(), 'from SERVER_NAME');
        unset($_SERVER['SERVER_NAME']);
        $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence(OFFLINE_KEY, tempDir(), $options));
        assertContains('pass the site address as the hote option', $e->getMessage());
    } finally {
        $_SERVER = $saved;
    }
});
test('configuration: the product and keys set in the class constants are the defaults', static function (): void {
    assertSame('', Licence::PRODUIT, 'shipped empty: the author sets it');
    assertSame('', Licence::CLES_PUBLIQUES, 'shipped empty: the author sets it');
    $e = assertThrows(InvalidArgumentException::class, static fn () => new Licence(OFFLINE_KEY, tempDir(), ['hote' => 'exemple.fr']));
    assertContains('set Licence::PRODUIT or the produit option', $e->getMessage());
});
test('configuration: a clock that returns no integer is a programming error at valide()', static function (): void {
    $licence = new Licence(OFFLINE_KEY, tempDir(), ['produit' => 'p', 'cles_publiques' => offlinePublicKey(), 'url' => closedPort(), 'hote' => 'x.fr', 'horloge' => static fn () => 'now']);
    $e = assertThrows(InvalidArgumentException::class, static fn () => $licence->valide());
    assertSame('horloge: expected a non-negative integer of seconds, got "now"', $e->getMessage());
});

// --- messages for every motif ----------------------------------------------------------------

$messages = [
    'ok' => [[], 'fresh', 'Licence valide pour exemple.fr.', 'Licence valid for exemple.fr.'],
    'ok in trial mode' => [['essai' => true, 'domaine' => 'boutique.exemple.fr'], 'fresh',
        'Licence en mode essai sur boutique.exemple.fr (site de test ou clé de développement).',
        'Licence in trial mode on boutique.exemple.fr (a test site or a development key).'],
    'autre_domaine' => [['ok' => false, 'motif' => 'autre_domaine', 'domaine' => 'a.fr, b.fr'], 'fresh',
        'Cette clé de licence est déjà utilisée sur a.fr et b.fr. Transférez-la depuis votre compte pour l\'utiliser sur boutique.exemple.fr.',
        'This licence key is already in use on a.fr and b.fr. Transfer it from your account to use it on boutique.exemple.fr.'],
    'transfert' => [['ok' => false, 'motif' => 'transfert', 'quand' => '2026-11-22T10:14:00Z'], 'fresh',
        'Cette clé de licence a été transférée vers un autre site le 22 novembre 2026 à 10:14 UTC. Saisissez la nouvelle clé reçue lors du transfert. Domaines concernés : exemple.fr.',
        'This licence key was transferred to another site on 22 November 2026 at 10:14 UTC. Enter the new key you received with the transfer. Domains concerned: exemple.fr.'],
    'regeneration' => [['ok' => false, 'motif' => 'regeneration', 'quand' => '2026-02-01T08:05:00Z', 'domaine' => ''], 'fresh',
        'Cette clé de licence a été remplacée par une nouvelle clé le 1er février 2026 à 08:05 UTC. Saisissez la nouvelle clé.',
        'This licence key was replaced by a new key on 1 February 2026 at 08:05 UTC. Enter the new key.'],
    'revocation' => [['ok' => false, 'motif' => 'revocation', 'quand' => '2026-01-01T00:00:00Z'], 'fresh',
        'Cette clé de licence a été révoquée le 1er janvier 2026 à 00:00 UTC. Contactez l\'éditeur du produit. Domaines concernés : exemple.fr.',
        'This licence key was revoked on 1 January 2026 at 00:00 UTC. Contact the product\'s publisher. Domains concerned: exemple.fr.'],
    'expiree' => [['ok' => false, 'motif' => 'expiree', 'quand' => '2025-12-31T23:59:59Z', 'domaine' => ''], 'fresh',
        'Cette clé d\'essai a expiré le 31 décembre 2025 à 23:59 UTC.',
        'This trial key expired on 31 December 2025 at 23:59 UTC.'],
    'inconnue' => [['ok' => false, 'motif' => 'inconnue', 'domaine' => ''], 'fresh',
        'Cette clé de licence n\'existe pas pour ce produit : vérifiez la clé saisie.',
        'This licence key does not exist for this product: check the key you entered.'],
    'a motif added by a later service' => [['ok' => false, 'motif' => 'suspendue'], 'fresh',
        'Licence refusée pour boutique.exemple.fr (motif : suspendue). Domaines concernés : exemple.fr.',
        'Licence refused for boutique.exemple.fr (reason: suspendue). Domains concerned: exemple.fr.'],
    'ok kept in grace' => [['revalider' => 1767229000], 'grace',
        'Licence valide pour exemple.fr. Le service de licence ne répond pas ; dernière vérification le 1er janvier 2026 à 00:00 UTC.',
        'Licence valid for exemple.fr. The licence service is not answering; last checked on 1 January 2026 at 00:00 UTC.'],
];
foreach ($messages as $name => [$fields, $state, $fr, $en]) {
    test("message: {$name}", static function () use ($fields, $state, $fr, $en): void {
        $dir = tempDir();
        $file = offlineCacheFile($dir);
        writeRecord($file, signedEnvelope($fields));
        $licence = offline($dir, 1767229200);
        assertSame($state, $licence->etat(), 'etat');
        assertSame($fields['ok'] ?? true, $licence->valide(), 'valide');
        assertSame($fields['essai'] ?? false, $licence->essai(), 'essai');
        assertSame($fr, $licence->message(), 'French');
        assertSame($en, $licence->message('en'), 'English');
        assertSame($en, offline($dir, 1767229200, ['langue' => 'en'])->message(), 'the langue option');
    });
}

// --- the cache file ---------------------------------------------------------------------------

test('cache: a failed first call writes a record without a verdict, mode 0600, named without the key', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    assertSame(0600, fileperms($file) & 0777, 'mode');
    assertTrue(preg_match('/^licence-[0-9a-f]{40}\.json$/', basename($file)) === 1, 'name: ' . basename($file));
    $record = json_decode(file_get_contents($file), true);
    assertSame(['envelope' => null, 'failures' => 1, 'retryAt' => 1767229200 + 300], $record, 'record');
    assertSame(true, is_file($file . '.lock'), 'the lock file beside it');
});
test('cache: one file per product, key and host', static function (): void {
    $dir = tempDir();
    offline($dir, 1767229200)->valide();
    offline($dir, 1767229200, ['hote' => 'autre.exemple.fr'])->valide();
    offline($dir, 1767229200, ['produit' => 'autre-produit'])->valide();
    (new Licence('ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', $dir, ['produit' => 'theme-boutique', 'cles_publiques' => offlinePublicKey(), 'url' => closedPort(), 'hote' => 'boutique.exemple.fr', 'horloge' => static fn () => 1767229200]))->valide();
    assertSame(4, count(glob($dir . '/licence-*.json')), 'files');
    offline($dir, 1767229200, ['hote' => 'www.boutique.exemple.fr'])->valide();
    assertSame(4, count(glob($dir . '/licence-*.json')), 'www. is the same host');
});
test('cache: a garbage file is ignored and replaced', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    file_put_contents($file, "\x00not json{");
    $licence = offline($dir, 1767229200 + 1000);
    assertSame([true, 'lapsed'], [$licence->valide(), $licence->etat()], 'lapsed: the product runs');
    assertSame(['envelope' => null, 'failures' => 1, 'retryAt' => 1767229200 + 1000 + 300], json_decode(file_get_contents($file), true), 'replaced');
});
test('cache: a retryAt more than an hour ahead is cut to one hour and written back', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    $envelope = signedEnvelope([]);
    writeRecord($file, $envelope, 2, 1767229200 + 10 * 86400);
    $now = $envelope->donnees->revalider + 100;
    $licence = offline($dir, $now);
    assertSame([true, 'grace'], [$licence->valide(), $licence->etat()], 'grace, no call');
    $record = json_decode(file_get_contents($file), true);
    assertSame([2, $now + 3600], [$record['failures'], $record['retryAt']], 'cut');
});
test('cache: a file larger than 64 KiB is not read', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    $record = ['envelope' => signedEnvelope([]), 'failures' => 0, 'retryAt' => 0, 'padding' => str_repeat('x', 70000)];
    file_put_contents($file, json_encode($record));
    assertSame('lapsed', offline($dir, 1767229200)->etat(), 'ignored: a call was made and failed');
});

// --- single refresher and the instance --------------------------------------------------------

test('lock: while another process refreshes, the cached verdict is used and nothing is called or written', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    $envelope = signedEnvelope([]);
    writeRecord($file, $envelope);
    $before = file_get_contents($file);
    $lock = fopen($file . '.lock', 'c');
    assertSame(true, flock($lock, LOCK_EX), 'lock taken by "another process"');
    try {
        $stale = offline($dir, $envelope->donnees->revalider + 10);
        assertSame([true, 'grace'], [$stale->valide(), $stale->etat()], 'stale verdict kept meanwhile');
        assertSame($before, file_get_contents($file), 'file untouched: no call was made');
        $lapsed = offline($dir, $envelope->donnees->emis + $envelope->donnees->sursis);
        assertSame([true, 'lapsed'], [$lapsed->valide(), $lapsed->etat()], 'past grace: lapsed, still no call');
        assertSame($before, file_get_contents($file), 'file still untouched');
    } finally {
        flock($lock, LOCK_UN);
        fclose($lock);
    }
    $after = offline($dir, $envelope->donnees->revalider + 10);
    assertSame('grace', $after->etat(), 'lock free: it calls (and fails: closed port)');
    assertSame(1, json_decode(file_get_contents($file), true)['failures'], 'the failed call is on file');
});
test('instance: valide() answers once per instance (call it once per request)', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    writeRecord($file, signedEnvelope([]));
    $licence = offline($dir, 1767229200);
    assertSame(true, $licence->valide(), 'first answer');
    writeRecord($file, signedEnvelope(['ok' => false, 'motif' => 'revocation', 'quand' => '2026-01-01T00:00:00Z']));
    assertSame(true, $licence->valide(), 'same instance, same answer');
    assertSame(false, offline($dir, 1767229200)->valide(), 'a new instance reads the file again');
});
test('instance: verdict() is the signed donnees as an array', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    $envelope = signedEnvelope([]);
    writeRecord($file, $envelope);
    assertSame(json_decode(json_encode($envelope->donnees), true), offline($dir, 1767229200)->verdict());
});
test('instance: the pure verifier reads the same cache (verification option)', static function (): void {
    $dir = tempDir();
    $file = offlineCacheFile($dir);
    writeRecord($file, signedEnvelope([]));
    assertSame([true, 'fresh'], [offline($dir, 1767229200, ['verification' => 'php'])->valide(), offline($dir, 1767229200, ['verification' => 'php'])->etat()]);
    $tampered = signedEnvelope([]);
    $tampered->donnees->domaine = 'autre.fr';
    writeRecord($file, $tampered);
    assertSame('lapsed', offline($dir, 1767229200, ['verification' => 'php'])->etat(), 'a tampered copy is ignored by the pure verifier too');
});
test('instance: message() refuses an unknown language', static function (): void {
    $e = assertThrows(InvalidArgumentException::class, static fn () => offline(tempDir(), 1767229200)->message('de'));
    assertSame('langue: expected "fr" or "en", got "de"', $e->getMessage());
});
