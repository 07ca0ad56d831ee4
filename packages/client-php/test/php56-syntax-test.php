<?php
/**
 * src/Licence.php parses with the PHP 5 grammar of nikic/PHP-Parser (Debian's php-parser) and
 * passes the visitor of lib/php56-check.php, which refuses what that grammar accepts but PHP 5.6
 * does not mean. The snippets below prove that the check can fail: each must be refused.
 */

require_once __DIR__ . '/lib/php56-check.php';

test('src/Licence.php is PHP 5.6', static function (): void {
    $problems = php56Problems(file_get_contents(LICENCE_FILE));
    assertSame([], $problems, 'problems');
});

test('src/Licence.php declares exactly one class, Licence, and nothing else at the top level', static function (): void {
    $ast = (new PhpParser\ParserFactory())->create(PhpParser\ParserFactory::ONLY_PHP5)->parse(file_get_contents(LICENCE_FILE));
    assertSame(1, count($ast), 'top-level statements');
    assertSame(true, $ast[0] instanceof PhpParser\Node\Stmt\Class_, 'a class');
    assertSame('Licence', $ast[0]->name->toString(), 'its name');
});

$refused = [
    'the null coalescing operator ??' => ['<?php $a = isset($b) ? $b : null; $c = $d ?? 1;', '`??` is PHP 7.0'],
    'a return type' => ['<?php function f() : array { return array(); }', 'return type'],
    'a scalar type hint' => ['<?php function f(int $x) { return $x; }', 'scalar type declaration `int`'],
    'a string type hint on a method' => ['<?php class A { public function f(string $s) {} }', 'scalar type declaration `string`'],
    'the spaceship operator' => ['<?php $a = 1 <=> 2;', '`<=>`'],
    '??=' => ['<?php $a ??= 1;', '`??=`'],
    'yield from' => ['<?php function g() { yield from h(); }', '`yield from`'],
    'an anonymous class' => ['<?php $a = new class {};', 'anonymous classes'],
    'a nullable type' => ['<?php function f(?A $a) {}', 'PHP 5 grammar'],
    'an arrow function' => ['<?php $f = fn($x) => $x;', 'PHP 5 grammar'],
    'a short list assignment' => ['<?php [$a, $b] = array(1, 2);', 'PHP 5 grammar'],
    'declare(strict_types=1)' => ['<?php declare(strict_types=1);', 'strict_types'],
    'random_bytes without a guard' => ['<?php $x = random_bytes(16);', 'function random_bytes may not exist'],
    'random_bytes guarded by another function' => ['<?php if (function_exists("openssl_random_pseudo_bytes")) { $x = random_bytes(16); }', 'function random_bytes may not exist'],
    'random_bytes in the else branch of its guard' => ['<?php if (function_exists("random_bytes")) { $a = 1; } else { $x = random_bytes(16); }', 'function random_bytes may not exist'],
    'intdiv' => ['<?php $x = intdiv(7, 2);', 'function intdiv may not exist'],
    'sodium without a guard' => ['<?php $ok = sodium_crypto_sign_verify_detached($s, $m, $k);', 'function sodium_crypto_sign_verify_detached'],
    'a PHP 7.1 constant' => ['<?php $f = JSON_UNESCAPED_LINE_TERMINATORS;', 'constant JSON_UNESCAPED_LINE_TERMINATORS'],
    'a PHP 7 constant through constant()' => ['<?php $f = constant("PHP_FLOAT_EPSILON");', 'constant PHP_FLOAT_EPSILON'],
    'a PHP 7 function through call_user_func' => ['<?php $x = call_user_func("random_int", 1, 2);', 'function random_int'],
    'a PHP 7 class' => ['<?php $e = new Error("x");', 'class Error'],
    'a negative string offset' => ['<?php $c = $s[-1];', 'negative offset'],
    'define() with an array' => ['<?php define("X", array(1));', 'define() with an array'],
    'array spread' => ['<?php $a = array(...$b);', 'spread'],
    'a numeric separator' => ['<?php $a = 1_000;', 'number literal'],
    'a unicode escape' => ['<?php $a = "\u{1F600}";', 'escapes are PHP 7.0'],
    'group use' => ['<?php use A\{B, C};', 'group use'],
    '$object::class' => ['<?php $c = $o::class;', '`$object::class`'],
];
foreach ($refused as $name => [$code, $expected]) {
    test("refuses {$name}", static function () use ($code, $expected): void {
        $problems = php56Problems($code);
        assertTrue($problems !== [], 'the check found nothing in ' . $code);
        assertContains($expected, implode("\n", $problems), 'problems');
    });
}

$accepted = [
    'PHP 5.6 syntax: variadics, **, const expressions, closures, finally' => '<?php class A { const B = 2; const C = self::B * 2; public function f(array $a, callable $c, self $s, ...$rest) { try { return $a[0] ** 2; } finally { $x = function () use ($c) { return $c(); }; } } }',
    'random_bytes inside its guard' => '<?php if (function_exists("random_bytes")) { $x = random_bytes(16); }',
    'random_bytes after an early return' => '<?php function r() { if (!function_exists("random_bytes")) { return null; } return random_bytes(16); }',
    'a guarded ternary' => '<?php $h = function_exists("sodium_crypto_sign_verify_detached") ? sodium_crypto_sign_verify_detached($s, $m, $k) : false;',
    'a guard with &&' => '<?php $ok = function_exists("idn_to_ascii") && defined("INTL_IDNA_VARIANT_UTS46") && idn_to_ascii($d, 0, INTL_IDNA_VARIANT_UTS46);',
    'a family guard: curl_init covers curl_exec and CURLOPT_URL' => '<?php if (function_exists("curl_init")) { $h = curl_init(); curl_setopt($h, CURLOPT_URL, "x"); curl_exec($h); }',
    'a catch of Throwable (never matches on 5.6, harmless)' => '<?php try { f(); } catch (Exception $e) { } catch (Throwable $e) { }',
    'a negative array key that is not a literal offset' => '<?php $c = $s[$i - 1];',
];
foreach ($accepted as $name => $code) {
    test("accepts {$name}", static function () use ($code): void {
        // Unknown user functions (f) are out of scope here: only the names below are about PHP versions.
        $problems = array_values(array_filter(php56Problems($code), static fn (string $p): bool => !preg_match('/function (f|r) may not exist/', $p)));
        assertSame([], $problems, 'problems');
    });
}

test('the command line form fails with a line per problem', static function (): void {
    $file = tempDir() . '/bad.php';
    file_put_contents($file, "<?php\n\$a = \$b ?? 1;\nfunction f(): int { return 1; }\n");
    exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/lib/php56-check.php') . ' ' . escapeshellarg($file) . ' 2>&1', $output, $status);
    assertSame(1, $status, 'exit status');
    assertSame(2, count($output), 'lines: ' . implode(' | ', $output));
    assertContains('line 2: `??` is PHP 7.0', $output[0]);
    assertContains('line 3: return type declarations are PHP 7.0', $output[1]);
});
