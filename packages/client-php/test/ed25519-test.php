<?php
/**
 * Third-party Ed25519 vectors (see packages/vectors/external/README.md): Wycheproof
 * ed25519_test.json (151 cases: malleability, non-canonical encodings, small-order points,
 * truncated and padded signatures) and RFC 8032 section 7.1 (TESTs 1, 2, 3 and 1024), through the
 * pure-PHP verifier and through sodium. Strict RFC 8032: both must agree with every label.
 */

$wycheproof = externalJson('wycheproof/ed25519_test.json');
$count = 0;
foreach ($wycheproof['testGroups'] as $group) {
    $publicKey = hex2bin($group['publicKey']['pk']);
    foreach ($group['tests'] as $case) {
        $count++;
        foreach (['php', 'sodium'] as $mode) {
            $name = sprintf('[%s] Wycheproof tcId %d %s (%s)', $mode, $case['tcId'], $case['result'], $case['comment'] === '' ? 'no comment' : $case['comment']);
            test($name, static function () use ($case, $publicKey, $mode): void {
                if ($mode === 'sodium') {
                    requires('sodium');
                }
                $valid = Licence::verifierSignature(hex2bin($case['sig']), hex2bin($case['msg']), $publicKey, $mode);
                assertSame($case['result'] === 'valid', $valid, 'verdict');
            });
        }
    }
}
test('Wycheproof: all 151 cases are in the file', static function () use ($count): void {
    assertSame(151, $count);
});

foreach (externalJson('rfc8032/rfc8032-ed25519.json') as $i => $case) {
    foreach (['php', 'sodium'] as $mode) {
        test(sprintf('[%s] RFC 8032 7.1 vector %d (%d-byte message)', $mode, $i + 1, strlen($case['msg']) / 2), static function () use ($case, $mode): void {
            if ($mode === 'sodium') {
                requires('sodium');
            }
            $signature = hex2bin($case['sig']);
            $message = hex2bin($case['msg']);
            $key = hex2bin($case['pub']);
            assertSame(true, Licence::verifierSignature($signature, $message, $key, $mode), 'the signature verifies');
            assertSame(false, Licence::verifierSignature($signature, $message . "\0", $key, $mode), 'another message does not');
            $flipped = $signature;
            $flipped[0] = chr(ord($flipped[0]) ^ 1);
            assertSame(false, Licence::verifierSignature($flipped, $message, $key, $mode), 'a flipped bit of R does not');
            $flipped = $signature;
            $flipped[40] = chr(ord($flipped[40]) ^ 1);
            assertSame(false, Licence::verifierSignature($flipped, $message, $key, $mode), 'a flipped bit of S does not');
        });
    }
    test(sprintf('RFC 8032 7.1 vector %d: sodium signs the same bytes', $i + 1), static function () use ($case): void {
        requires('sodium');
        $pair = sodium_crypto_sign_seed_keypair(hex2bin($case['priv']));
        assertSame($case['pub'], bin2hex(sodium_crypto_sign_publickey($pair)));
        assertSame($case['sig'], bin2hex(sodium_crypto_sign_detached(hex2bin($case['msg']), sodium_crypto_sign_secretkey($pair))));
    });
}

test('wrong lengths are a bad signature, not an exception', static function (): void {
    foreach (extension_loaded('sodium') ? ['php', 'sodium'] : ['php'] as $mode) {
        assertSame(false, Licence::verifierSignature(str_repeat("\0", 63), 'm', str_repeat("\0", 32), $mode));
        assertSame(false, Licence::verifierSignature(str_repeat("\0", 64), 'm', str_repeat("\0", 31), $mode));
    }
});
test('a non-string argument is a programming error', static function (): void {
    assertThrows(InvalidArgumentException::class, static function () { return Licence::verifierSignature(null, 'm', 'k'); });
});
test('random keys and messages: the pure verifier agrees with sodium', static function (): void {
    requires('sodium');
    for ($i = 0; $i < 12; $i++) {
        $pair = sodium_crypto_sign_seed_keypair(random_bytes(32));
        $message = $i === 0 ? "" : random_bytes($i * 7);
        $signature = sodium_crypto_sign_detached($message, sodium_crypto_sign_secretkey($pair));
        $key = sodium_crypto_sign_publickey($pair);
        assertSame(true, Licence::verifierSignature($signature, $message, $key, 'php'), "signature {$i} verifies");
        $other = sodium_crypto_sign_publickey(sodium_crypto_sign_seed_keypair(random_bytes(32)));
        assertSame(false, Licence::verifierSignature($signature, $message, $other, 'php'), "signature {$i} under another key");
    }
});
