<?php
/**
 * packages/vectors/cases/messages.json (docs/protocol.md#messages): every case through
 * Licence::phrase(), the sentence message() gives, word for word as the TypeScript client.
 * licence-test.php checks that message() gives it for the verdict the instance acts on.
 */

$file = vectorFile('messages');
foreach ($file->cases as $case) {
    test($case->name, static function () use ($case): void {
        assertSame($case->message, Licence::phrase($case->donnees, $case->state, $case->lang));
    });
}

test('phrase() refuses an unknown language', static function () use ($file): void {
    $e = assertThrows(InvalidArgumentException::class, static function () use ($file) { return Licence::phrase($file->cases[0]->donnees, 'fresh', 'de'); });
    assertSame('langue: expected "fr" or "en", got "de"', $e->getMessage());
});
