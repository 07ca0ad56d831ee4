<?php
/**
 * packages/vectors/cases/staging.json (docs/protocol.md#staging-hosts): Licence::estHoteDeStaging()
 * answers every `hote` case as core's isStagingHost does, the built-in patterns with the case's own
 * `patterns`. The `pattern` cases check patterns where they enter the service: core only.
 */

$file = vectorFile('staging');
foreach ($file->cases as $case) {
    if (!isset($case->hote)) {
        continue;
    }
    test($case->name, static function () use ($case): void {
        $motifs = isset($case->patterns) ? $case->patterns : [];
        assertSame($case->staging, Licence::estHoteDeStaging($case->hote, $motifs), 'staging');
    });
}

test('the built-in patterns are the list staging.json names', static function () use ($file): void {
    $note = '';
    foreach ($file->notes as $text) {
        if (strpos($text, 'Built-in patterns: ') === 0) {
            $note = $text;
        }
    }
    $listed = explode(', ', preg_replace('/ \(.*$/', '', substr($note, strlen('Built-in patterns: '))));
    assertSame($listed, explode(',', Licence::MOTIFS_DE_STAGING));
});

test('a host or a pattern list of the wrong type is refused with its type', static function (): void {
    $e = assertThrows(InvalidArgumentException::class, static function () { return Licence::estHoteDeStaging(42); });
    assertSame('hote: expected a string, got integer', $e->getMessage());
    $e = assertThrows(InvalidArgumentException::class, static function () { return Licence::estHoteDeStaging('a.fr', 'a.fr'); });
    assertSame('motifs: expected an array, got string', $e->getMessage());
    $e = assertThrows(InvalidArgumentException::class, static function () { return Licence::estHoteDeStaging('a.fr', ['*.b.fr', null]); });
    assertSame('motifs: expected strings, got null', $e->getMessage());
});

test('a * at either end of its label, or alone, stands for one or more characters', static function (): void {
    assertSame(true, Licence::estHoteDeStaging('abc.exemple.net', ['*c.exemple.net']));
    assertSame(false, Licence::estHoteDeStaging('c.exemple.net', ['*c.exemple.net']));
    assertSame(true, Licence::estHoteDeStaging('ab.exemple.net', ['a*.exemple.net']));
    assertSame(false, Licence::estHoteDeStaging('a.exemple.net', ['a*.exemple.net']));
    assertSame(false, Licence::estHoteDeStaging('exemple.net', ['*.exemple.net']));
});
