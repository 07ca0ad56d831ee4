<?php
/**
 * End to end against the real Koa server (lib/server.php), the client's scenario list, each run
 * with curl and with PHP streams (the `transport` option), one server per transport so that the
 * rate limit (docs/protocol.md#rate-limit: 30 per minute per IP) of one run never touches the
 * other. The client's clock is injected (option `horloge`): "stale", "grace over" and "revalider"
 * are reached by moving it, never by waiting. Calls are counted in the server's own request log.
 */

require_once __DIR__ . '/lib/server.php';

const PRODUIT = 'theme-php';
const AUTRE_PRODUIT = 'autre-produit';

/** Both servers boot at once, on first use. */
function servers(): array
{
    static $servers = null;
    if ($servers === null) {
        $servers = ['curl' => LicenceServer::spawn(), 'flux' => LicenceServer::spawn()];
        foreach ($servers as $server) {
            $server->waitReady();
            $server->addProduct(PRODUIT);
            $server->addProduct(AUTRE_PRODUIT);
        }
    }
    return $servers;
}

function testPublicKey(): string
{
    return vectorFile('signatures')->keys->primary->publicKey;
}

/**
 * Ten PHP processes at once, behind a barrier, on a stale cache of $site: exactly one call reaches
 * the server (docs/protocol.md#refresh-lock). $hung: the lock is held all along by a process that
 * took it a minute ago and never lets go.
 */
function tenProcesses(string $t, string $site, bool $hung): void
{
    $server = servers()[$t];
    $cle = $server->issueKey(PRODUIT);
    $dir = tempDir();
    $first = client($t, $cle, $dir, $site, time());
    assertSame(true, $first->valide(), 'valide');
    $v = $first->verdict();
    // The refreshed verdict must be fresh at the children's clock (revalider): a later second.
    while (time() <= $v['emis']) {
        usleep(20000);
    }
    if ($hung) {
        // docs/protocol.md#refresh-lock: a holder that took the lock a minute ago and hangs
        // (this process, from its own handle: flock refuses every other open file). Held for
        // longer than a call can last, it is stale whatever flock says.
        $locks = glob($dir . '/licence-*.json.lock');
        assertSame(1, count($locks), 'the lock file of the first call');
        $holder = fopen($locks[0], 'c');
        assertSame(true, flock($holder, LOCK_EX | LOCK_NB), 'the hung holder has the lock');
        touch($locks[0], time() - 60);
    }
    $barrier = tempDir();
    $config = $barrier . '/config.json';
    file_put_contents($config, json_encode(['barrier' => $barrier, 'dir' => $dir, 'now' => $v['revalider'], 'options' => [
        'produit' => PRODUIT, 'cles_publiques' => testPublicKey(), 'url' => $server->url, 'hote' => $site, 'transport' => $t,
    ]]));
    $before = $server->licenceRequests();
    $children = [];
    for ($i = 0; $i < 10; $i++) {
        $process = proc_open([PHP_BINARY, __DIR__ . '/lib/concurrent-client.php', $config, (string) $i], [
            0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w'],
        ], $pipes, null, array_merge(getenv(), ['LICENCE_TEST_CLE' => $cle]));
        Harness::onExit(static fn () => stopProcess($process));
        $children[] = [$process, $pipes];
    }
    $deadline = microtime(true) + 30;
    while (count(glob($barrier . '/ready-*')) < 10) {
        assertTrue(microtime(true) < $deadline, 'children ready');
        usleep(5000);
    }
    touch($barrier . '/go');
    $states = [];
    foreach ($children as [$process, $pipes]) {
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $result = json_decode(trim($out), true);
        assertTrue(is_array($result), 'child output: ' . $out . $err);
        assertSame(true, $result['valide'], 'valide in every process');
        $states[] = $result['etat'];
    }
    if ($hung) {
        fclose($holder);
    }
    assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
    $counts = array_count_values($states);
    assertSame(1, $counts['refreshed'] ?? 0, 'one process refreshed: ' . implode(', ', $states));
    assertSame(10, ($counts['refreshed'] ?? 0) + ($counts['grace'] ?? 0) + ($counts['fresh'] ?? 0), 'the others kept the cached verdict or read the new one');
}

/** A client of the scenario: the test chooses key, folder, host, time and service address. */
function client(string $transport, string $cle, string $dir, string $hote, int $now, array $options = []): Licence
{
    return new Licence($cle, $dir, $options + [
        'produit' => PRODUIT,
        'cles_publiques' => testPublicKey(),
        'url' => servers()[$transport]->url,
        'hote' => $hote,
        'transport' => $transport,
        'horloge' => static fn () => $now,
    ]);
}

/** The one cache file of a folder, decoded. */
function cacheFile(string $dir): string
{
    $files = glob($dir . '/licence-*.json');
    assertSame(1, count($files), 'cache files in ' . $dir);
    return $files[0];
}

function cacheRecord(string $dir): array
{
    return json_decode(file_get_contents(cacheFile($dir)), true);
}

/** The cache file name this client would use, found by letting it fail once against a closed port. */
function cacheFileFor(string $transport, string $cle, string $dir, string $hote, int $now, array $options = []): string
{
    $probe = client($transport, $cle, $dir, $hote, $now, $options + ['url' => closedPort()]);
    assertSame('lapsed', $probe->etat(), 'probe state');
    return cacheFile($dir);
}

foreach (['curl', 'flux'] as $t) {
    $s = new ArrayObject();

    test("{$t}: first call: a signed verdict is fetched, checked and cached", static function () use ($t, $s): void {
        $server = servers()[$t];
        $s['cle1'] = $server->issueKey(PRODUIT);
        $s['dir1'] = tempDir();
        $before = $server->licenceRequests();
        $licence = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', time());
        assertSame(true, $licence->valide(), 'valide');
        assertSame('refreshed', $licence->etat(), 'etat');
        assertSame(false, $licence->essai(), 'essai');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        $verdict = $licence->verdict();
        assertSame(['boutique-un.fr', 'boutique-un.fr', PRODUIT], [$verdict['hote'], $verdict['domaine'], $verdict['produit']], 'hote, domaine, produit');
        assertTrue(preg_match('/^[A-Za-z0-9_-]{32}$/', $verdict['nonce']) === 1, 'a fresh nonce was sent and echoed');
        assertSame('Licence valide pour boutique-un.fr.', $licence->message(), 'message');
        assertSame('Licence valid for boutique-un.fr.', $licence->message('en'), 'message in English');
        $file = cacheFile($s['dir1']);
        assertSame(0600, fileperms($file) & 0777, 'cache file mode');
        $bare = str_replace('-', '', $s['cle1']);
        assertNotContains(strtolower($bare), strtolower(basename($file)), 'cache file name');
        assertNotContains($bare, file_get_contents($file), 'cache file content');
        $record = cacheRecord($s['dir1']);
        assertSame(['envelope', 'failures', 'retryAt'], array_keys($record), 'record members');
        assertSame([0, 0], [$record['failures'], $record['retryAt']], 'no back-off');
        assertSame(['donnees', 'signature'], array_keys($record['envelope']), 'only the signed members are stored');
        assertSame([], glob($s['dir1'] . '/*.tmp'), 'no temporary file left');
        $s['v1'] = $verdict;
    });

    test("{$t}: fresh: the cached verdict is used and the server counts zero calls", static function () use ($t, $s): void {
        $server = servers()[$t];
        $before = $server->licenceRequests();
        foreach ([60, 3600, 86399] as $offset) {
            $licence = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $s['v1']['emis'] + $offset);
            assertSame(true, $licence->valide(), "valide at +{$offset} s");
            assertSame('fresh', $licence->etat(), "etat at +{$offset} s");
        }
        assertSame($before, $server->licenceRequests(), 'calls reaching the server');
    });

    test("{$t}: stale: at revalider the client calls again and stores the new verdict", static function () use ($t, $s): void {
        $server = servers()[$t];
        $before = $server->licenceRequests();
        $licence = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $s['v1']['revalider']);
        assertSame(true, $licence->valide(), 'valide');
        assertSame('refreshed', $licence->etat(), 'etat');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        $verdict = $licence->verdict();
        assertTrue($verdict['nonce'] !== $s['v1']['nonce'], 'a new nonce for a new call');
        assertSame($verdict['nonce'], cacheRecord($s['dir1'])['envelope']['donnees']['nonce'], 'the new verdict is on file');
        $s['v2'] = $verdict;
    });

    test("{$t}: server down: grace, and the back-off makes no new connection attempt", static function () use ($t, $s): void {
        $down = new FakeService('drop');
        $now = $s['v2']['revalider'] + 10;
        $licence = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $now, ['url' => $down->url]);
        assertSame(true, $licence->valide(), 'valide');
        assertSame('grace', $licence->etat(), 'etat');
        assertSame(1, $down->connections(), 'connection attempts');
        assertContains('Le service de licence ne répond pas ; dernière vérification le ', $licence->message(), 'message');
        $record = cacheRecord($s['dir1']);
        assertSame([1, $now + 300], [$record['failures'], $record['retryAt']], 'back-off on file (5 min)');
        assertSame($s['v2']['nonce'], $record['envelope']['donnees']['nonce'], 'the verdict is kept on file');
        foreach ([0, 60, 299] as $later) {
            $again = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $now + $later, ['url' => $down->url]);
            assertSame(true, $again->valide(), "valide at +{$later} s");
            assertSame('grace', $again->etat(), "etat at +{$later} s");
        }
        assertSame(1, $down->connections(), 'connection attempts during the back-off');
        assertSame(1, cacheRecord($s['dir1'])['failures'], 'failures during the back-off');
        $down->stop();
        // Once the back-off is over, a refused connection (nothing listens) is the second failure.
        $refused = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $now + 300, ['url' => closedPort()]);
        assertSame('grace', $refused->etat(), 'etat after a refused connection');
        $record = cacheRecord($s['dir1']);
        assertSame([2, $now + 300 + 600], [$record['failures'], $record['retryAt']], 'back-off doubled (10 min)');
    });

    test("{$t}: grace over: lapsed, motif reseau, and valide() is still true", static function () use ($t, $s): void {
        $now = $s['v2']['emis'] + $s['v2']['sursis'];
        $licence = client($t, $s['cle1'], $s['dir1'], 'www.boutique-un.fr', $now, ['url' => closedPort()]);
        assertSame(true, $licence->valide(), 'valide');
        assertSame('lapsed', $licence->etat(), 'etat');
        $verdict = $licence->verdict();
        assertSame([false, 'reseau', 'boutique-un.fr', PRODUIT], [$verdict['ok'], $verdict['motif'], $verdict['hote'], $verdict['produit']], 'the client-made verdict');
        assertSame("Le service de licence n'a pas pu être joint : le produit continue de fonctionner et vérifiera la licence plus tard.", $licence->message(), 'message');
        $record = cacheRecord($s['dir1']);
        assertSame(3, $record['failures'], 'failures');
        assertSame($s['v2']['nonce'], $record['envelope']['donnees']['nonce'], 'the old verdict stays on file');
    });

    test("{$t}: revoke then refresh: the signed refusal stops the product at once", static function () use ($t, $s): void {
        $server = servers()[$t];
        $s['cle2'] = $server->issueKey(PRODUIT);
        $s['dir2'] = tempDir();
        $first = client($t, $s['cle2'], $s['dir2'], 'boutique-deux.fr', time());
        assertSame(true, $first->valide(), 'valide before the revocation');
        // The positive answer as the service sent it, for the replay scenario below.
        $s['oldAnswer'] = json_encode(cacheRecord($s['dir2'])['envelope'], JSON_UNESCAPED_SLASHES);
        $v = $first->verdict();
        $server->revoke($s['cle2']);
        $before = $server->licenceRequests();
        $fresh = client($t, $s['cle2'], $s['dir2'], 'boutique-deux.fr', $v['emis'] + 60);
        assertSame(true, $fresh->valide(), 'valide: the fresh cache is used until revalider');
        assertSame($before, $server->licenceRequests(), 'no call while fresh');
        $refreshed = client($t, $s['cle2'], $s['dir2'], 'boutique-deux.fr', $v['revalider']);
        assertSame(false, $refreshed->valide(), 'valide after the refresh');
        assertSame('refreshed', $refreshed->etat(), 'etat');
        $refusal = $refreshed->verdict();
        assertSame(['revocation', 'boutique-deux.fr'], [$refusal['motif'], $refusal['domaine']], 'motif and domaine');
        assertTrue(preg_match('/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/', $refusal['quand']) === 1, 'quand dates the event');
        $date = '[0-9]{1,2}(er)? [A-Za-zéû]+ [0-9]{4} (à|at) [0-9]{2}:[0-9]{2} UTC';
        assertTrue(preg_match("/^Cette clé de licence a été révoquée le {$date}\\. Contactez l'éditeur du produit\\. Domaines concernés : boutique-deux\\.fr\\.$/u", $refreshed->message()) === 1, 'message: ' . $refreshed->message());
        assertTrue(preg_match("/^This licence key was revoked on {$date}\\. Contact the product's publisher\\. Domains concerned: boutique-deux\\.fr\\.$/u", $refreshed->message('en')) === 1, 'message in English: ' . $refreshed->message('en'));
        $again = client($t, $s['cle2'], $s['dir2'], 'boutique-deux.fr', $refusal['revalider'] - 1);
        assertSame([false, 'fresh'], [$again->valide(), $again->etat()], 'the cached refusal keeps stopping it');
        $s['revalider2'] = $refusal['revalider'];
    });

    test("{$t}: transfer: the old site stops at revalider, not before", static function () use ($t, $s): void {
        $server = servers()[$t];
        $cle = $server->issueKey(PRODUIT);
        $dir = tempDir();
        $first = client($t, $cle, $dir, 'boutique-trois.fr', time());
        assertSame(true, $first->valide(), 'valide before the transfer');
        $v = $first->verdict();
        $nouvelle = $server->transfer($cle, 'boutique-trois.fr', 'nouvelle-boutique.fr');
        $before = $server->licenceRequests();
        $justBefore = client($t, $cle, $dir, 'boutique-trois.fr', $v['revalider'] - 1);
        assertSame([true, 'fresh'], [$justBefore->valide(), $justBefore->etat()], 'one second before revalider');
        assertSame($before, $server->licenceRequests(), 'no call before revalider');
        $at = client($t, $cle, $dir, 'boutique-trois.fr', $v['revalider']);
        assertSame([false, 'refreshed'], [$at->valide(), $at->etat()], 'at revalider');
        assertSame('transfert', $at->verdict()['motif'], 'motif');
        assertContains('a été transférée vers un autre site le ', $at->message(), 'message');
        $newSite = client($t, $nouvelle, tempDir(), 'nouvelle-boutique.fr', time());
        assertSame(true, $newSite->valide(), 'the new key on the new site');
    });

    test("{$t}: a tampered cache file is ignored and a fresh call made", static function () use ($t, $s): void {
        $server = servers()[$t];
        $s['cle4'] = $server->issueKey(PRODUIT);
        $s['dir4'] = tempDir();
        $first = client($t, $s['cle4'], $s['dir4'], 'boutique-quatre.fr', time());
        assertSame(true, $first->valide(), 'valide');
        $s['v4'] = $first->verdict();
        $s['file4'] = file_get_contents(cacheFile($s['dir4']));
        $record = json_decode($s['file4']);
        $record->envelope->donnees->revalider += 365 * 86400;
        file_put_contents(cacheFile($s['dir4']), json_encode($record));
        $before = $server->licenceRequests();
        $later = client($t, $s['cle4'], $s['dir4'], 'boutique-quatre.fr', $s['v4']['revalider'] + 10);
        assertSame(true, $later->valide(), 'valide');
        assertSame('refreshed', $later->etat(), 'etat: the tampered copy was not trusted');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        assertTrue(cacheRecord($s['dir4'])['envelope']['donnees']['revalider'] < $s['v4']['revalider'] + 365 * 86400, 'the tampered copy is replaced');
    });

    test("{$t}: a cache file copied from another host is ignored", static function () use ($t, $s): void {
        $server = servers()[$t];
        $dir = tempDir();
        $file = cacheFileFor($t, $s['cle4'], $dir, 'autre-boutique.fr', time());
        file_put_contents($file, $s['file4']);
        $before = $server->licenceRequests();
        $licence = client($t, $s['cle4'], $dir, 'autre-boutique.fr', $s['v4']['emis'] + 60);
        assertSame(false, $licence->valide(), 'valide: the copied positive verdict did not unlock this host');
        assertSame('refreshed', $licence->etat(), 'etat');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        assertSame(['autre_domaine', 'boutique-quatre.fr'], [$licence->verdict()['motif'], $licence->verdict()['domaine']], 'motif and domaine');
        assertSame('Cette clé de licence est déjà utilisée sur boutique-quatre.fr. Transférez-la depuis votre compte pour l\'utiliser sur autre-boutique.fr.', $licence->message(), 'message');
    });

    test("{$t}: a cache file copied from another product is ignored", static function () use ($t, $s): void {
        $server = servers()[$t];
        $dir = tempDir();
        $file = cacheFileFor($t, $s['cle4'], $dir, 'boutique-quatre.fr', time(), ['produit' => AUTRE_PRODUIT]);
        file_put_contents($file, $s['file4']);
        $before = $server->licenceRequests();
        $licence = client($t, $s['cle4'], $dir, 'boutique-quatre.fr', $s['v4']['emis'] + 60, ['produit' => AUTRE_PRODUIT]);
        assertSame(false, $licence->valide(), 'valide: a verdict for theme-php does not open autre-produit');
        assertSame('refreshed', $licence->etat(), 'etat');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        assertSame(['inconnue', AUTRE_PRODUIT], [$licence->verdict()['motif'], $licence->verdict()['produit']], 'motif and produit');
    });

    test("{$t}: a replayed old response from a fake service is rejected (wrong nonce)", static function () use ($t, $s): void {
        $answerFile = tempDir() . '/answer.json';
        file_put_contents($answerFile, $s['oldAnswer']);
        $replay = new FakeService('replay', $answerFile);
        // The cache holds the signed revocation; the replayed answer is the old positive verdict.
        $now = $s['revalider2'];
        $licence = client($t, $s['cle2'], $s['dir2'], 'boutique-deux.fr', $now, ['url' => $replay->url]);
        assertSame(false, $licence->valide(), 'valide: the replay cannot lift the cached revocation');
        assertSame('grace', $licence->etat(), 'etat: the replay counts as a failed call');
        assertSame(1, $replay->connections(), 'the replay was served');
        $record = cacheRecord($s['dir2']);
        assertSame(['revocation', 1], [$record['envelope']['donnees']['motif'], $record['failures']], 'revocation kept, one failure');
        // With no cache at all, the replay is no verdict either: lapsed, not the replayed ok.
        $empty = client($t, $s['cle2'], tempDir(), 'boutique-deux.fr', $now, ['url' => $replay->url]);
        assertSame('lapsed', $empty->etat(), 'etat without cache');
        assertSame('reseau', $empty->verdict()['motif'], 'motif without cache');
        assertSame(2, $replay->connections(), 'the replay was served twice');
        $replay->stop();
    });

    test("{$t}: a slow service: the client gives up at its timeout", static function () use ($t, $s): void {
        $slow = new FakeService('slow', '1.5');
        // Control: with time enough, the slow service's signed answer for this call is accepted.
        $patient = client($t, $s['cle4'], tempDir(), 'lente.fr', time(), ['url' => $slow->url, 'delai' => 10]);
        assertSame([true, 'refreshed'], [$patient->valide(), $patient->etat()], 'a patient client takes the answer');
        $hasty = client($t, $s['cle4'], tempDir(), 'lente.fr', time(), ['url' => $slow->url, 'delai' => 0.3]);
        assertSame([true, 'lapsed'], [$hasty->valide(), $hasty->etat()], 'a client with a 0.3 s timeout gives up');
        // The hasty client gave up after 0.3 s, maybe before the fake (another process, busy with
        // nothing but maybe not scheduled yet) counted its connection: it is in the fake's backlog
        // and will be counted. Wait for it rather than race it.
        $deadline = microtime(true) + 20;
        while ($slow->connections() < 2 && microtime(true) < $deadline) {
            usleep(20000);
        }
        assertSame(2, $slow->connections(), 'both calls reached the slow service');
        $slow->stop();
    });

    test("{$t}: ten processes on a stale cache: one call reaches the server", static function () use ($t): void {
        tenProcesses($t, 'boutique-cinq.fr', false);
    });

    test("{$t}: ten processes on a stale cache whose lock a hung process holds: one takes it over, one call", static function () use ($t): void {
        tenProcesses($t, 'boutique-six.fr', true);
    });

    test("{$t}: a www.www. site: binds boutique.fr, reuses its cache file, sees a revocation once due", static function () use ($t): void {
        // docs/protocol.md#hosts-in-clients: the host is sent as configured and the service
        // normalises it once, www.boutique.fr; normalising that again would give boutique.fr.
        $server = servers()[$t];
        $cle = $server->issueKey(PRODUIT);
        $dir = tempDir();
        $site = 'http://www.www.boutique.fr/';
        $before = $server->licenceRequests();
        $first = client($t, $cle, $dir, $site, time());
        assertSame('www.boutique.fr', $first->hote(), 'hote');
        assertSame([true, 'refreshed'], [$first->valide(), $first->etat()], 'first call');
        $v = $first->verdict();
        assertSame([true, 'www.boutique.fr', 'boutique.fr'], [$v['ok'], $v['hote'], $v['domaine']], 'ok, hote, domaine');
        assertSame($before + 1, $server->licenceRequests(), 'calls reaching the server');
        [$status, $installations] = $server->admin('GET', '/admin/products/' . PRODUIT . '/installations');
        assertSame(200, $status, 'GET installations');
        $hint = substr(str_replace('-', '', $cle), -4);
        $mine = array_values(array_filter($installations['keys'], static fn (array $key): bool => $key['hint'] === $hint));
        assertSame(1, count($mine), 'the key among the installations');
        assertSame(['boutique.fr'], array_column($mine[0]['domains'], 'domain'), 'the bound domain');
        $file = cacheFile($dir);
        $second = client($t, $cle, $dir, $site, $v['emis'] + 3600);
        assertSame([true, 'fresh'], [$second->valide(), $second->etat()], 'a second instance reads the cache file');
        assertSame($before + 1, $server->licenceRequests(), 'no call while fresh');
        $server->revoke($cle);
        $due = client($t, $cle, $dir, $site, $v['revalider']);
        assertSame([false, 'refreshed'], [$due->valide(), $due->etat()], 'at revalider');
        assertSame(['revocation', 'www.boutique.fr'], [$due->verdict()['motif'], $due->verdict()['hote']], 'motif and hote');
        assertSame($before + 2, $server->licenceRequests(), 'one more call');
        assertSame($file, cacheFile($dir), 'the same cache file');
        assertSame('revocation', cacheRecord($dir)['envelope']['donnees']['motif'], 'the revocation is on file');
    });

    // Last on this server: it spends the rate limit of 127.0.0.1 for a minute.
    test("{$t}: 429: the cached verdict is kept and Retry-After is honoured", static function () use ($t): void {
        $server = servers()[$t];
        $cle = $server->issueKey(PRODUIT);
        $dir = tempDir();
        $first = client($t, $cle, $dir, 'boutique-six.fr', time());
        assertSame(true, $first->valide(), 'valide');
        $v = $first->verdict();
        $signature = cacheRecord($dir)['envelope']['signature'];
        for ($i = 0; $i < 40; $i++) {
            [$status] = httpJson('POST', $server->url . '/api/licence', ['cle' => 'x'], [], 'LicencePhpTests/1.0');
            if ($status === 429) {
                break;
            }
        }
        assertSame(429, $status, 'the rate limit answers 429');
        $now = $v['revalider'];
        $licence = client($t, $cle, $dir, 'boutique-six.fr', $now);
        assertSame(true, $licence->valide(), 'valide');
        assertSame('grace', $licence->etat(), 'etat: a 429 is never a refusal');
        $record = cacheRecord($dir);
        assertSame([$signature, 1], [$record['envelope']['signature'], $record['failures']], 'the cached verdict is kept');
        $wait = $record['retryAt'] - $now;
        assertTrue($wait >= 1 && $wait <= 60, "the back-off is the service's Retry-After (1..60 s), not the 300 s schedule: {$wait}");
    });
}
