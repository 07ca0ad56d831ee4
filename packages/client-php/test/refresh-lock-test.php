<?php
/**
 * The refresh lock (docs/protocol.md#refresh-lock) on every PHP line: a lock held for longer than
 * one call can last (the timeout plus Licence::MARGE_VERROU) is stale whatever flock says, and is
 * taken over under `<lock>.takeover`.
 *
 * Why on every line: in php-wasm 8.2 to 8.5 (what WordPress Playground runs), on a folder mounted
 * from the host (NODEFS), after one failed stream request of the process, flock answers "held by
 * someone else" for every file, for good. A client that believed it never refreshed. php-wasm's
 * own /tmp is in memory (MEMFS), where flock tells the truth, so on php-wasm these tests work in
 * the host folder scripts/php-matrix.mjs mounts (LICENCE_HOST_TMP). On Debian's PHP flock tells
 * the truth: the tests hold a real lock from a second handle of this process (flock locks belong
 * to an open file, so the client's own handle is refused, as another process's would be).
 *
 * Every call goes to a closed port and fails: a call that was made shows as the failed call
 * recorded in the cache file (failures 1, the 300 s back-off); one that was not leaves the file as
 * it was. PHP 7.2 syntax; no sodium (the verdict is signatures.json's, already signed).
 */

/** A folder for cache and lock files: on the host's file system on php-wasm (see above). */
function lockDir(): string
{
    $mounted = getenv('LICENCE_HOST_TMP');
    if (!is_string($mounted) || $mounted === '') {
        return tempDir('licence-lock-');
    }
    $dir = $mounted . '/licence-lock-' . bin2hex(random_bytes(6));
    mkdir($dir, 0700);
    Harness::onExit(static function () use ($dir): void {
        removeTree($dir);
    });
    return $dir;
}

/** signatures.json "ok with produit": a verdict for mon-theme on exemple.fr, signed with the TEST ONLY key. */
function lockVerdict(): stdClass
{
    foreach (vectorFile('signatures')->cases as $case) {
        if ($case->name === 'ok with produit') {
            return (object) ['donnees' => $case->donnees, 'signature' => $case->signature];
        }
    }
    throw new RuntimeException('signatures.json: no "ok with produit" case');
}

/** A client for that verdict, on $dir, at $now (client clock), calling a port nothing listens on. */
function lockClient(string $dir, int $now): Licence
{
    return new Licence('RFRSH-TESTK-EYABC-DEFGH-JKMNP', $dir, [
        'produit' => 'mon-theme',
        'cles_publiques' => vectorFile('signatures')->keys->primary->publicKey,
        // Port 1: connection refused at once.
        'url' => 'http://127.0.0.1:1',
        'hote' => 'exemple.fr',
        // Bounds a call should the network hang instead of refusing; the lock's bound is 12 s.
        'delai' => 2,
        'horloge' => static function () use ($now): int {
            return $now;
        },
    ]);
}

/**
 * A cache folder holding the verdict, stale at the returned time (past revalider, within grace),
 * and its lock file, last taken $lockAge seconds ago (null: no lock file yet).
 *
 * @return array{0: string, 1: string, 2: int} [cache file, lock file, client time]
 */
function staleCache(string $dir, ?int $lockAge): array
{
    $verdict = lockVerdict();
    $now = $verdict->donnees->revalider + 10;
    // The client names its cache file: a first instance with no cache calls, fails, and writes it.
    $first = lockClient($dir, $now);
    assertSame('lapsed', $first->etat(), 'setup: no cache yet, the call fails');
    $files = glob($dir . '/licence-*.json');
    assertSame(1, count($files), 'setup: cache files');
    $file = $files[0];
    file_put_contents($file, json_encode(['envelope' => $verdict, 'failures' => 0, 'retryAt' => 0], JSON_UNESCAPED_SLASHES));
    if ($lockAge === null) {
        unlink($file . '.lock');
    } else {
        touch($file . '.lock', time() - $lockAge);
    }
    return [$file, $file . '.lock', $now];
}

/** Whether a call was made: the failed call and its back-off are on file, or nothing changed. */
function assertCalled(bool $called, string $file, int $now, string $what): void
{
    $record = json_decode((string) file_get_contents($file), true);
    assertSame($called ? [1, $now + 300] : [0, 0], [$record['failures'], $record['retryAt']], $what);
}

/** The site's own code makes a request that fails (a feed, an update check...), before valide(). */
function failedStreamRequest(): void
{
    assertSame(false, @file_get_contents('http://127.0.0.1:1/'), 'the stream request failed');
}

/**
 * Holds the lock as another process would, with its mark $age seconds old. Returns the handle, or
 * null where flock takes no lock at all (php-wasm: it lies or is not supported).
 *
 * @return resource|null
 */
function holdLock(string $lock, int $age)
{
    $handle = fopen($lock, 'c');
    $held = flock($handle, LOCK_EX | LOCK_NB);
    touch($lock, time() - $age);
    if (!$held) {
        fclose($handle);
        return null;
    }
    return $handle;
}

function releaseLock($handle): void
{
    if ($handle !== null) {
        flock($handle, LOCK_UN);
        fclose($handle);
    }
}

// --- a lock that lies (php-wasm 8.2 to 8.5 after a failed stream request) ---------------------

test('after a failed stream request, a lock file left by an earlier refresh does not stop the refresh', static function (): void {
    [$file, , $now] = staleCache(lockDir(), 60);
    failedStreamRequest();
    $licence = lockClient(dirname($file), $now);
    assertSame([true, 'grace'], [$licence->valide(), $licence->etat()], 'the cached verdict is kept');
    assertCalled(true, $file, $now, 'a call was made');
});

test('after a failed stream request, a site with no lock file yet refreshes', static function (): void {
    [$file, $lock, $now] = staleCache(lockDir(), null);
    failedStreamRequest();
    $licence = lockClient(dirname($file), $now);
    assertSame([true, 'grace'], [$licence->valide(), $licence->etat()], 'the cached verdict is kept');
    assertCalled(true, $file, $now, 'a call was made');
    assertSame(true, is_file($lock), 'the lock file is there');
    assertSame(false, is_file($lock . '.takeover'), 'no takeover file is left');
});

// --- the bound: timeout (2 s here) + 10 s, whatever flock says ---------------------------------

test('a lock taken less than a call ago is left to its holder: no call, nothing written', static function (): void {
    [$file, $lock, $now] = staleCache(lockDir(), null);
    failedStreamRequest();
    // 4 s: well inside the 12 s bound, so that a stalled machine cannot age it past the bound.
    $handle = holdLock($lock, 4);
    try {
        $licence = lockClient(dirname($file), $now);
        // Where flock takes no lock and says so (php-wasm 7.2 to 8.1), the client calls: only the
        // coordination between processes is lost (docs/protocol.md#cache). Elsewhere flock says
        // "held" (truly, or lying) and the mark is 4 s old: believed.
        $calls = $handle === null && !lockSaysHeld($lock);
        assertSame([true, 'grace'], [$licence->valide(), $licence->etat()], 'the cached verdict is kept');
        assertCalled($calls, $file, $now, $calls ? 'no lock here: a call was made' : 'no call while the lock is held');
    } finally {
        releaseLock($handle);
    }
});

test('a lock held for longer than a call can last is taken over, whatever flock says', static function (): void {
    [$file, $lock, $now] = staleCache(lockDir(), null);
    failedStreamRequest();
    // 14 s: past the 12 s bound (time only makes it older).
    $handle = holdLock($lock, 14);
    try {
        $licence = lockClient(dirname($file), $now);
        assertSame([true, 'grace'], [$licence->valide(), $licence->etat()], 'the cached verdict is kept');
        assertCalled(true, $file, $now, 'a call was made');
        if ($handle !== null) {
            // flock truly held (Debian): taken over, and marked, so the next process believes it.
            clearstatcache();
            assertTrue(time() - filemtime($lock) < 5, 'the lock file marked by its new holder');
        }
    } finally {
        releaseLock($handle);
    }
});

// --- the takeover file -----------------------------------------------------------------------

test('a takeover file of a process that is taking the lock: no call; one left by a crash is removed', static function (): void {
    [$file, $lock, $now] = staleCache(lockDir(), 60);
    touch($lock . '.takeover');
    assertSame('grace', lockClient(dirname($file), $now)->etat(), 'kept meanwhile');
    assertCalled(false, $file, $now, 'no call while another process takes the lock');
    touch($lock . '.takeover', time() - 15);
    assertSame('grace', lockClient(dirname($file), $now)->etat(), 'kept meanwhile');
    assertSame(false, is_file($lock . '.takeover'), 'the stale takeover file is removed');
    assertSame('grace', lockClient(dirname($file), $now)->etat(), 'the next instance calls');
    assertCalled(true, $file, $now, 'a call was made');
});

/** Whether flock, asked from a fresh handle, answers "held" for the lock file (truly or not). */
function lockSaysHeld(string $lock): bool
{
    $handle = fopen($lock, 'c');
    $wouldBlock = 0;
    $taken = flock($handle, LOCK_EX | LOCK_NB, $wouldBlock);
    if ($taken) {
        flock($handle, LOCK_UN);
    }
    fclose($handle);
    return !$taken && $wouldBlock === 1;
}
