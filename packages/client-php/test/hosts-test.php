<?php
/**
 * packages/vectors/cases/hosts.json (docs/protocol.md#host-normalisation):
 * Licence::normaliserHote() gives core's `hote` byte for byte, or refuses. The client needs no
 * Public Suffix List: for the `publicSuffix` refusals it only has to normalise without error (the
 * service then answers 400, a failed call). Cases marked `unicode` need intl's UTS #46
 * (docs/protocol.md#hosts-in-clients); CI installs php-intl, so they run.
 */

$file = vectorFile('hosts');
$hasIntl = function_exists('idn_to_ascii');
foreach ($file->cases as $case) {
    $unicode = !empty($case->unicode);
    if ($unicode && !$hasIntl) {
        // Without intl a non-ASCII host is refused with a clear message instead.
        test('[no intl] ' . $case->name, static function () use ($case): void {
            $e = assertThrows(InvalidArgumentException::class, static function () use ($case) { return Licence::normaliserHote($case->url); });
            assertContains('intl', $e->getMessage());
        });
        continue;
    }
    test(($unicode ? '[unicode] ' : '') . $case->name, static function () use ($case): void {
        if (!empty($case->publicSuffix)) {
            assertSame(true, is_string(Licence::normaliserHote($case->url)), 'normalises without error');
            return;
        }
        if (!empty($case->rejected)) {
            $e = assertThrows(InvalidArgumentException::class, static function () use ($case) { return Licence::normaliserHote($case->url); }, 'normaliserHote');
            assertSame('url: ', substr($e->getMessage(), 0, 5), 'message prefix');
            return;
        }
        assertSame($case->hote, Licence::normaliserHote($case->url), 'hote');
    });
}

test('a normalised host is not always a fixed point: the raw value is what the client sends', static function (): void {
    // www.www.x.fr -> www.x.fr -> x.fr: the client sends the raw value and compares with the
    // normalisation of that same raw value (Licence::__construct).
    assertSame('www.exemple.fr', Licence::normaliserHote('www.www.exemple.fr'));
    assertSame('exemple.fr', Licence::normaliserHote('www.exemple.fr'));
});
test('a url that is not UTF-8 is refused', static function (): void {
    $e = assertThrows(InvalidArgumentException::class, static function () { return Licence::normaliserHote("exemple\xff.fr"); });
    assertSame('url: not valid UTF-8', $e->getMessage());
});
test('a url that is not a string is refused with its type', static function (): void {
    $e = assertThrows(InvalidArgumentException::class, static function () { return Licence::normaliserHote(42); });
    assertSame('url: expected a string, got integer', $e->getMessage());
});
test('IPv6 with an embedded IPv4 part in the middle of the address is refused', static function (): void {
    assertThrows(InvalidArgumentException::class, static function () { return Licence::normaliserHote('[1.2.3.4::]'); });
    assertSame('[::102:304]', Licence::normaliserHote('[::1.2.3.4]'));
});
