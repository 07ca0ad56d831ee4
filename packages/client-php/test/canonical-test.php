<?php
/**
 * packages/vectors/cases/canonical.json (docs/protocol.md#canonical-form): Licence::canonique()
 * must print exactly the text and bytes core signs, or refuse what core refuses.
 */

$file = vectorFile('canonical');
foreach ($file->cases as $case) {
    test($case->name, static function () use ($case): void {
        if (!empty($case->rejected)) {
            assertThrows(InvalidArgumentException::class, static function () use ($case) { return Licence::canonique($case->input); }, 'canonique');
            return;
        }
        $text = Licence::canonique($case->input);
        assertSame($case->canonical, $text, 'canonical text');
        assertSame($case->utf8Hex, bin2hex($text), 'UTF-8 bytes');
    });
}

// What JSON.parse gives and core therefore prints: cases beyond the file, from core's rules.
test('1.0 and 1e2 are the integers 1 and 100, as JSON.parse reads them', static function (): void {
    assertSame('{"a":1,"b":100,"c":0}', Licence::canonique(json_decode('{"b":1e2,"a":1.0,"c":-0.0}')));
});
test('an empty array and an empty object stay apart', static function (): void {
    assertSame('{"a":[],"b":{}}', Licence::canonique(json_decode('{"b":{},"a":[]}')));
});
test('numeric keys are sorted as strings and printed as keys, not as a list', static function (): void {
    assertSame('{"0":"a","1":"b","10":"c","9":"d"}', Licence::canonique(json_decode('{"9":"d","10":"c","1":"b","0":"a"}')));
});
test('nesting deeper than 32 levels is refused, 32 is fine', static function (): void {
    $ok = json_decode(str_repeat('[', 32) . '1' . str_repeat(']', 32));
    assertSame(str_repeat('[', 32) . '1' . str_repeat(']', 32), Licence::canonique($ok));
    $deep = json_decode(str_repeat('[', 33) . '1' . str_repeat(']', 33));
    assertThrows(InvalidArgumentException::class, static function () use ($deep) { return Licence::canonique($deep); });
});
test('a string that is not UTF-8 is refused', static function (): void {
    assertThrows(InvalidArgumentException::class, static function () { return Licence::canonique((object) ['s' => "\xff"]); });
});
test('an associative PHP array is refused: decode JSON objects as objects', static function (): void {
    assertThrows(InvalidArgumentException::class, static function () { return Licence::canonique(['b' => 1]); });
});
test('INF is refused', static function (): void {
    assertThrows(InvalidArgumentException::class, static function () { return Licence::canonique((object) ['n' => INF]); });
});
