<?php
/**
 * packages/vectors/cases/signatures.json (docs/protocol.md#signature, #product-and-nonce,
 * #canonical-form, RFC 8032), run twice: with sodium and with the pure-PHP verifier forced. `sign`
 * cases: the canonical text matches, sodium signing with the TEST ONLY seed gives exactly the
 * signature (so the bytes we rebuild are the bytes the service signs), and the envelope verifies.
 * `verify` cases: verifierEnveloppe() says `valid`.
 */

$file = vectorFile('signatures');
$primary = $file->keys->primary;
foreach (['sodium', 'php'] as $mode) {
    foreach ($file->cases as $case) {
        test("[{$mode}] {$case->kind}: {$case->name}", static function () use ($case, $primary, $mode): void {
            if ($mode === 'sodium') {
                requires('sodium');
            }
            if ($case->kind === 'sign') {
                $canonical = Licence::canonique($case->donnees);
                assertSame($case->canonical, $canonical, 'canonical text');
                // Signing is sodium's: the [sodium] run checks it, the [php] run (every php-wasm
                // line, which has no sodium) checks the rest.
                if ($mode === 'sodium') {
                    $pair = sodium_crypto_sign_seed_keypair(base64_decode($primary->seed));
                    assertSame($primary->publicKey, base64_encode(sodium_crypto_sign_publickey($pair)), 'public key of the TEST ONLY seed');
                    assertSame($case->signature, base64_encode(sodium_crypto_sign_detached($canonical, sodium_crypto_sign_secretkey($pair))), 'signature');
                }
                $envelope = (object) ['donnees' => $case->donnees, 'signature' => $case->signature];
                assertSame(true, Licence::verifierEnveloppe($envelope, rawKeys([$primary->publicKey]), ['hote' => $case->donnees->hote], $mode), 'verifies');
                return;
            }
            $expect = (array) $case->expect;
            $valid = Licence::verifierEnveloppe($case->envelope, rawKeys($case->trustedPublicKeys), $expect, $mode);
            assertSame($case->valid, $valid, 'valid');
        });
    }
}

test('Licence::$forcerPhp makes the default mode the pure verifier', static function () use ($file): void {
    $case = $file->cases[0];
    $signature = base64_decode($case->signature);
    $key = base64_decode($file->keys->primary->publicKey);
    Licence::$forcerPhp = true;
    try {
        assertSame(true, Licence::verifierSignature($signature, $case->canonical, $key));
        assertSame(false, Licence::verifierSignature($signature, $case->canonical . ' ', $key));
    } finally {
        Licence::$forcerPhp = false;
    }
});
