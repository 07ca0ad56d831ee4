<?php
/**
 * packages/vectors/cases/keys.json, the `normalise` cases (docs/protocol.md#key-normalisation):
 * Licence::normaliserCle() keeps ASCII letters and digits, folds to upper case, refuses over 1024
 * UTF-16 units, empty, or nothing left. (The `generate` cases are the service's: a client never
 * makes keys.)
 */

$file = vectorFile('keys');
foreach ($file->cases as $case) {
    if ($case->kind !== 'normalise') {
        continue;
    }
    test($case->name, static function () use ($case): void {
        $input = isset($case->inputRepeat)
            ? str_repeat($case->inputRepeat->text, $case->inputRepeat->times) . ($case->append ?? $case->inputRepeat->append ?? '')
            : $case->input;
        if (!empty($case->rejected)) {
            $e = assertThrows(InvalidArgumentException::class, static function () use ($input) { return Licence::normaliserCle($input); }, 'normaliserCle');
            assertSame('cle: ', substr($e->getMessage(), 0, 5), 'message prefix');
            return;
        }
        $expected = isset($case->normalisedRepeat)
            ? str_repeat($case->normalisedRepeat->text, $case->normalisedRepeat->times)
            : $case->normalised;
        assertSame($expected, Licence::normaliserCle($input), 'normalised key');
    });
}
