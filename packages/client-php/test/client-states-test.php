<?php
/**
 * packages/vectors/cases/client-states.json (docs/protocol.md#states): every case
 * through Licence::etape(), with sodium and with the pure verifier; a case's `cle` is handed as
 * attendu['cle']. `store` is compared deeply,
 * member order aside; so is `donnees`.
 */

$file = vectorFile('client-states');
$keys = rawKeys($file->trustedPublicKeys);
foreach (['sodium', 'php'] as $mode) {
    foreach ($file->cases as $case) {
        test("[{$mode}] {$case->name}", static function () use ($case, $keys, $mode): void {
            if ($mode === 'sodium') {
                requires('sodium');
            }
            $outcome = null;
            if (isset($case->outcome)) {
                $outcome = (array) $case->outcome;
                if ($outcome['type'] === 'response') {
                    $outcome += ['body' => null, 'retryAfter' => null];
                }
            }
            $attendu = (array) $case->expect;
            if (property_exists($case, 'cle')) {
                // protocol.md#no-usable-key: the key as handed, null and false included.
                $attendu['cle'] = $case->cle;
            }
            $result = Licence::etape($case->now, $case->cache, $outcome, $keys, $attendu, $mode);
            $expected = $case->result;
            assertSame($expected->action, $result['action'], 'action');
            if ($expected->action !== 'use') {
                assertSame(['action'], array_keys($result), 'nothing but the action');
                return;
            }
            assertSame($expected->state, $result['state'], 'state');
            assertSame($expected->runs, $result['runs'], 'runs');
            assertJsonEquals($expected->donnees, $result['donnees'], 'donnees');
            assertJsonEquals($expected->store, $result['store'], 'store');
        });
    }
}

// docs/protocol.md#hosts-in-clients: a case's `host` is what the client is configured with and
// sends as is; expect.hote is its normalisation, once (www.www.x.fr gives www.x.fr, not x.fr).
foreach ($file->cases as $case) {
    if (isset($case->host)) {
        test("[host] {$case->name}", static function () use ($case): void {
            assertSame($case->expect->hote, Licence::normaliserHote($case->host), 'expect.hote');
        });
    }
}

test('programming errors are refused with a clear message', static function () use ($keys): void {
    $e = assertThrows(InvalidArgumentException::class, static function () use ($keys) { return Licence::etape(-1, null, null, $keys, ['hote' => 'x.fr']); });
    assertSame('now: expected a non-negative integer (seconds), got -1', $e->getMessage());
    assertThrows(InvalidArgumentException::class, static function () { return Licence::etape(1, null, null, [], ['hote' => 'x.fr']); });
    assertThrows(InvalidArgumentException::class, static function () use ($keys) { return Licence::etape(1, null, null, $keys, []); });
    $e = assertThrows(InvalidArgumentException::class, static function () use ($keys) { return Licence::etape(1, null, ['type' => 'response', 'status' => 42, 'body' => null], $keys, ['hote' => 'x.fr']); });
    assertSame('outcome.status: expected an HTTP status from 100 to 599, got 42', $e->getMessage());
});

// core backoff.test.ts's Retry-After forms, through the PHP parser (docs/protocol.md#back-off).
$now = 1767398400; // 2026-01-03T00:00:00Z
$retryAfter = [
    ['120', 120], [' 120 ', 120], ["\t7", 7], ['0', 1], ['000', 1], ['99999999999999999999', 3600],
    ['Sat, 03 Jan 2026 00:15:00 GMT', 900], ['Saturday, 03-Jan-26 00:15:00 GMT', 900],
    ['Sat Jan  3 00:15:00 2026', 900], ['Fri, 02 Jan 2026 23:00:00 GMT', 1],
    ['Sat, 03 Jan 2026 00:00:60 GMT', 60], ['Sun, 31 Feb 2026 00:00:00 GMT', null],
    ['sat, 03 Jan 2026 00:15:00 GMT', null], ['Sat, 03 Jan 2026 00:15:00 UTC', null],
    ["Sat, 03 Jan 2026 00:15:00 GMT\n", null], ['-5', null], ['1.5', null], ['soon', null], ['', null],
    ['Sat, 03 Jan 2026 24:00:00 GMT', null], ['Mon, 29 Feb 2028 00:00:00 GMT', 3600], ['Sat, 29 Feb 2025 00:00:00 GMT', null],
];
foreach ($retryAfter as [$value, $seconds]) {
    test('Retry-After ' . json_encode($value) . ' gives ' . json_encode($seconds), static function () use ($value, $seconds, $now): void {
        assertSame($seconds, Licence::secondesRetryAfter($value, $now));
    });
}
test('RFC 850 two-digit years: more than 50 years ahead is the previous century', static function (): void {
    $now = 1767398400; // 2026
    assertSame(3600, Licence::secondesRetryAfter('Friday, 01-Jan-76 00:00:00 GMT', $now), '2076 is within 50 years');
    assertSame(1, Licence::secondesRetryAfter('Saturday, 01-Jan-77 00:00:00 GMT', $now), '2077 is more than 50 years ahead: 1977');
});
test('the back-off schedule: 300, 600, 1200, 2400, 3600, 3600', static function (): void {
    $delays = array_map(static function (int $n) { return Licence::delaiApresEchec($n, 0); }, [1, 2, 3, 4, 5, 6, 100]);
    assertSame([300, 600, 1200, 2400, 3600, 3600, 3600], $delays);
    assertSame(120, Licence::delaiApresEchec(6, 0, 429, '120'), 'a 429 asks');
    assertSame(300, Licence::delaiApresEchec(1, 0, 503, '120'), 'a 503 does not');
});
