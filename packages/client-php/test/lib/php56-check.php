<?php
/**
 * Proves that a PHP file means the same thing on PHP 5.6 as on later versions, with a real
 * parser: nikic/PHP-Parser 4 (Debian's php-parser, /usr/share/php/PhpParser), PHP 5 grammar
 * (ParserFactory::ONLY_PHP5), then a node visitor for what that grammar still accepts but PHP 5.6
 * does not mean. PHP-Parser's "PHP 5" grammar is lenient: it parses `??`, `<=>`, return types,
 * `yield from`, anonymous classes and more, because they do not clash with PHP 5 syntax. So the
 * visitor refuses:
 *
 * - syntax from PHP 7 and later that the grammar lets through: `??`, `??=`, `<=>`, return types,
 *   `yield from`, anonymous classes, group use, `declare(strict_types)`, array spread, `$obj::class`,
 *   `1_000`, `0o17`, `"\u{...}"`, indented heredoc closers;
 * - scalar type declarations (`int $x`, `string $x`...): PHP 5.6 reads `int` as a class name and
 *   fails at run time on every call;
 * - semantics that changed: negative string offsets (`$s[-1]`, 7.1), `define()` with an array (7.0);
 * - calls to functions, constants and classes that PHP 5.6 may not have, unless guarded:
 *   a function must be in FUNCTIONS_56 (always there in PHP 5.6: standard, pcre, spl, date, hash,
 *   json) or sit behind a guard: inside `if (function_exists('f'))` (or `defined('C')`,
 *   `extension_loaded('ext')`, combined with &&), in the true branch of such a ternary, on the right
 *   of such an &&, or after an early `if (!function_exists('f') ...) { ...return/throw; }` in the
 *   same block. A guard covers its name and the names of the same extension family (curl_... and CURL...,
 *   idn_..., IDNA_... and INTL_..., sodium_..., mcrypt_... and MCRYPT_..., openssl_... and OPENSSL_...). String callables given to
 *   call_user_func, call_user_func_array and array_map, and constant('NAME'), count as uses.
 *
 * Usage: php test/lib/php56-check.php FILE... (exit 1 and one line per problem), or
 * php56Problems($code) from the tests.
 */

require_once '/usr/share/php/PhpParser/autoload.php';

use PhpParser\Lexer;
use PhpParser\Node;
use PhpParser\NodeTraverser;
use PhpParser\NodeVisitor\ParentConnectingVisitor;
use PhpParser\NodeVisitorAbstract;
use PhpParser\ParserFactory;

/** Functions that every PHP 5.6 has (the ones Licence.php uses, checked against the 5.6 manual). */
const FUNCTIONS_56 = [
    'abs', 'array_key_exists', 'array_keys', 'array_map', 'array_pop', 'array_search', 'array_values',
    'base64_decode', 'base64_encode', 'bin2hex', 'call_user_func', 'call_user_func_array', 'ceil', 'chmod',
    'chr', 'clearstatcache', 'constant', 'count', 'dechex', 'defined', 'end', 'error_log', 'explode', 'extension_loaded',
    'fclose', 'fflush', 'file_get_contents', 'filemtime', 'filesize', 'flock', 'floor', 'fmod', 'fopen', 'fread',
    'ftruncate', 'function_exists', 'fwrite', 'get_class', 'getmypid', 'gettype', 'hash', 'hex2bin', 'hexdec', 'implode',
    'ini_get', 'in_array', 'intval', 'is_array', 'is_bool', 'is_callable', 'is_dir', 'is_file', 'is_finite', 'is_float',
    'is_int', 'is_object', 'is_string', 'json_decode', 'json_encode', 'ksort', 'ltrim', 'max', 'microtime',
    'min', 'mkdir', 'mt_rand', 'number_format', 'ord', 'pow', 'preg_match', 'preg_match_all',
    'preg_replace', 'preg_replace_callback', 'preg_split', 'property_exists', 'range', 'rename', 'rtrim',
    'sprintf', 'str_pad', 'str_repeat', 'str_replace', 'strcspn', 'stream_context_create',
    'stream_get_contents', 'stream_get_meta_data', 'stripos',
    'strlen', 'strncmp', 'strpos', 'strrpos', 'strtolower', 'strtoupper', 'strtr', 'substr', 'time', 'trim',
    'uniqid', 'unlink', 'unpack', 'var_export',
];

/** Constants that every PHP 5.6 has (JSON_UNESCAPED_* since 5.4, PHP_VERSION_ID since 5.2.7). */
const CONSTANTS_56 = [
    'true', 'false', 'null', 'DIRECTORY_SEPARATOR', 'JSON_UNESCAPED_SLASHES', 'JSON_UNESCAPED_UNICODE',
    'LOCK_EX', 'LOCK_NB', 'LOCK_SH', 'LOCK_UN', 'PHP_INT_MAX', 'PHP_INT_SIZE', 'PHP_VERSION_ID', 'PHP_EOL',
    'PREG_SPLIT_NO_EMPTY', 'SORT_STRING', 'E_USER_WARNING', 'INF',
];

/** Classes that PHP 5.6 has, for `new`, static calls and class constants. */
const CLASSES_56 = [
    'self', 'static', 'parent', 'stdclass', 'exception', 'invalidargumentexception', 'runtimeexception',
    'logicexception', 'unexpectedvalueexception', 'domainexception', 'errorexception', 'closure',
];

/** PHP 7 scalar type declarations: PHP 5.6 reads each of these as a class name. */
const SCALAR_TYPES = ['int', 'float', 'string', 'bool', 'iterable', 'object', 'mixed', 'void', 'null', 'false', 'true', 'never', 'resource', 'integer', 'boolean', 'double'];

/** @return list<string> one "line N: ..." per problem; empty when the code is fine for PHP 5.6 */
function php56Problems(string $code): array
{
    $lexer = new Lexer\Emulative(['usedAttributes' => ['comments', 'startLine', 'endLine', 'startFilePos', 'endFilePos']]);
    $parser = (new ParserFactory())->create(ParserFactory::ONLY_PHP5, $lexer);
    try {
        $ast = $parser->parse($code);
    } catch (PhpParser\Error $error) {
        return ['line ' . $error->getStartLine() . ': PHP 5 grammar: ' . $error->getRawMessage()];
    }
    $traverser = new NodeTraverser();
    $traverser->addVisitor(new ParentConnectingVisitor());
    $visitor = new Php56Visitor($code);
    $traverser->addVisitor($visitor);
    $traverser->traverse($ast ?? []);
    return $visitor->problems;
}

final class Php56Visitor extends NodeVisitorAbstract
{
    /** @var list<string> */
    public array $problems = [];

    public function __construct(private readonly string $code)
    {
    }

    private function refuse(Node $node, string $message): void
    {
        $this->problems[] = 'line ' . $node->getStartLine() . ': ' . $message;
    }

    private function raw(Node $node): string
    {
        $start = $node->getAttribute('startFilePos');
        $end = $node->getAttribute('endFilePos');
        return is_int($start) && is_int($end) ? substr($this->code, $start, $end - $start + 1) : '';
    }

    public function enterNode(Node $node)
    {
        $refused = [
            Node\Expr\BinaryOp\Coalesce::class => '`??` is PHP 7.0',
            Node\Expr\AssignOp\Coalesce::class => '`??=` is PHP 7.4',
            Node\Expr\BinaryOp\Spaceship::class => '`<=>` is PHP 7.0',
            Node\Expr\YieldFrom::class => '`yield from` is PHP 7.0',
            Node\Stmt\GroupUse::class => 'group use declarations are PHP 7.0',
        ];
        foreach ($refused as $class => $message) {
            if ($node instanceof $class) {
                $this->refuse($node, $message);
            }
        }
        if ($node instanceof Node\FunctionLike && $node->getReturnType() !== null) {
            $this->refuse($node, 'return type declarations are PHP 7.0');
        }
        if ($node instanceof Node\Param && $node->type !== null) {
            $type = $node->type;
            if ($type instanceof Node\NullableType || $type instanceof Node\UnionType || $type instanceof Node\IntersectionType) {
                $this->refuse($node, 'nullable, union and intersection types are PHP 7.1+');
            } elseif (in_array(strtolower($type->toString()), SCALAR_TYPES, true)) {
                $this->refuse($node, "scalar type declaration `{$type->toString()}` is PHP 7.0: PHP 5.6 reads it as a class name");
            }
        }
        if ($node instanceof Node\Stmt\Declare_) {
            foreach ($node->declares as $declare) {
                if ($declare->key->toString() === 'strict_types') {
                    $this->refuse($node, 'declare(strict_types) is PHP 7.0');
                }
            }
        }
        if ($node instanceof Node\Expr\New_ && $node->class instanceof Node\Stmt\Class_) {
            $this->refuse($node, 'anonymous classes are PHP 7.0');
        }
        if ($node instanceof Node\Expr\ArrayItem && $node->unpack) {
            $this->refuse($node, 'spread in an array literal is PHP 7.4');
        }
        if ($node instanceof Node\Expr\ClassConstFetch && !$node->class instanceof Node\Name && $node->name instanceof Node\Identifier && strtolower($node->name->toString()) === 'class') {
            $this->refuse($node, '`$object::class` is PHP 8.0');
        }
        if ($node instanceof Node\Scalar\LNumber || $node instanceof Node\Scalar\DNumber) {
            $raw = $this->raw($node);
            if (str_contains($raw, '_') || preg_match('/^0[oO]/', $raw)) {
                $this->refuse($node, "number literal `{$raw}` needs PHP 7.4/8.1");
            }
        }
        if (($node instanceof Node\Scalar\String_ || $node instanceof Node\Scalar\Encapsed) && $node->getAttribute('kind') !== Node\Scalar\String_::KIND_SINGLE_QUOTED && $node->getAttribute('kind') !== Node\Scalar\String_::KIND_NOWDOC) {
            if (preg_match('/(?<!\\\\)(\\\\\\\\)*\\\\u\{/', $this->raw($node))) {
                $this->refuse($node, '"\\u{...}" escapes are PHP 7.0: PHP 5.6 keeps them as text');
            }
            if (($node->getAttribute('docIndentation') ?? '') !== '') {
                $this->refuse($node, 'an indented heredoc closing marker is PHP 7.3');
            }
        }
        if ($node instanceof Node\Expr\ArrayDimFetch && $node->dim instanceof Node\Expr\UnaryMinus) {
            $this->refuse($node, 'a negative offset means the end of a string only since PHP 7.1');
        }
        if ($node instanceof Node\Expr\FuncCall && $node->name instanceof Node\Name) {
            $this->checkCall($node);
        }
        if ($node instanceof Node\Expr\ConstFetch) {
            $this->checkName($node, $node->name->toString(), 'constant');
        }
        if (($node instanceof Node\Expr\New_ || $node instanceof Node\Expr\StaticCall || $node instanceof Node\Expr\ClassConstFetch || $node instanceof Node\Expr\StaticPropertyFetch)
            && $node->class instanceof Node\Name && !in_array(strtolower($node->class->toString()), CLASSES_56, true)) {
            $this->refuse($node, "class {$node->class->toString()} is not known to exist in PHP 5.6");
        }
        return null;
    }

    private function checkCall(Node\Expr\FuncCall $call): void
    {
        $name = $call->name->toString();
        $lower = strtolower($name);
        $this->checkName($call, $name, 'function');
        $first = $call->args[0] ?? null;
        $literal = $first instanceof Node\Arg && $first->value instanceof Node\Scalar\String_ ? $first->value->value : null;
        if ($lower === 'define' && isset($call->args[1]) && $call->args[1] instanceof Node\Arg && $call->args[1]->value instanceof Node\Expr\Array_) {
            $this->refuse($call, 'define() with an array is PHP 7.0');
        }
        if ($literal === null) {
            return;
        }
        if (in_array($lower, ['call_user_func', 'call_user_func_array', 'array_map'], true)) {
            $this->checkName($call, $literal, 'function');
        } elseif ($lower === 'constant') {
            $this->checkName($call, $literal, 'constant');
        }
    }

    private function checkName(Node $node, string $name, string $kind): void
    {
        $known = $kind === 'function' ? in_array(strtolower($name), FUNCTIONS_56, true) : in_array($name, CONSTANTS_56, true) || in_array(strtolower($name), ['true', 'false', 'null'], true);
        if ($known || $this->isGuarded($node, $name)) {
            return;
        }
        $guard = $kind === 'function' ? "function_exists('{$name}')" : "defined('{$name}')";
        $this->refuse($node, "{$kind} {$name} may not exist in PHP 5.6: guard it with {$guard}");
    }

    private function isGuarded(Node $node, string $name): bool
    {
        $child = $node;
        $parent = $node->getAttribute('parent');
        while ($parent instanceof Node) {
            if (($parent instanceof Node\Stmt\If_ || $parent instanceof Node\Stmt\ElseIf_) && in_array($child, $parent->stmts, true) && self::asserts($parent->cond, $name)) {
                return true;
            }
            if ($parent instanceof Node\Expr\Ternary && $parent->if === $child && self::asserts($parent->cond, $name)) {
                return true;
            }
            if (($parent instanceof Node\Expr\BinaryOp\BooleanAnd || $parent instanceof Node\Expr\BinaryOp\LogicalAnd) && $parent->right === $child && self::asserts($parent->left, $name)) {
                return true;
            }
            if (property_exists($parent, 'stmts') && is_array($parent->stmts)) {
                $index = array_search($child, $parent->stmts, true);
                if ($index !== false) {
                    for ($i = 0; $i < $index; $i++) {
                        $before = $parent->stmts[$i];
                        if ($before instanceof Node\Stmt\If_ && $before->else === null && $before->elseifs === [] && self::exits($before->stmts) && self::denies($before->cond, $name)) {
                            return true;
                        }
                    }
                }
            }
            $child = $parent;
            $parent = $parent->getAttribute('parent');
        }
        return false;
    }

    /** A block that always leaves: its last statement returns or throws. */
    private static function exits(array $stmts): bool
    {
        $last = end($stmts);
        return $last instanceof Node\Stmt\Return_ || $last instanceof Node\Stmt\Throw_;
    }

    /** The condition holds only if $name exists: a guard call on it (or its family), or && with one. */
    private static function asserts(Node\Expr $cond, string $name): bool
    {
        if ($cond instanceof Node\Expr\BinaryOp\BooleanAnd || $cond instanceof Node\Expr\BinaryOp\LogicalAnd) {
            return self::asserts($cond->left, $name) || self::asserts($cond->right, $name);
        }
        if (!$cond instanceof Node\Expr\FuncCall || !$cond->name instanceof Node\Name) {
            return false;
        }
        $guard = strtolower($cond->name->toString());
        $arg = $cond->args[0] ?? null;
        if (!$arg instanceof Node\Arg || !$arg->value instanceof Node\Scalar\String_) {
            return false;
        }
        $guarded = $arg->value->value;
        if ($guard === 'extension_loaded') {
            return self::family($name) === strtolower($guarded);
        }
        if ($guard !== 'function_exists' && $guard !== 'defined') {
            return false;
        }
        return strcasecmp($guarded, $name) === 0 || (self::family($guarded) !== null && self::family($guarded) === self::family($name));
    }

    /** The condition is true whenever $name is missing: `!guard`, or || with one. */
    private static function denies(Node\Expr $cond, string $name): bool
    {
        if ($cond instanceof Node\Expr\BinaryOp\BooleanOr || $cond instanceof Node\Expr\BinaryOp\LogicalOr) {
            return self::denies($cond->left, $name) || self::denies($cond->right, $name);
        }
        return $cond instanceof Node\Expr\BooleanNot && self::asserts($cond->expr, $name);
    }

    private static function family(string $name): ?string
    {
        $families = [
            'curl' => '/^curl/i',
            'intl' => '/^(idn_|idna_|intl_)/i',
            'sodium' => '/^(sodium_|sodium\\\\)/i',
            'mcrypt' => '/^mcrypt_/i',
            'openssl' => '/^openssl_/i',
        ];
        foreach ($families as $family => $pattern) {
            if (preg_match($pattern, $name)) {
                return $family;
            }
        }
        return null;
    }
}

if (PHP_SAPI === 'cli' && isset($argv[0]) && realpath($argv[0]) === __FILE__) {
    $status = 0;
    foreach (array_slice($argv, 1) as $file) {
        $code = file_get_contents($file);
        if ($code === false) {
            fwrite(STDERR, "cannot read {$file}\n");
            exit(2);
        }
        foreach (php56Problems($code) as $problem) {
            echo "{$file}: {$problem}\n";
            $status = 1;
        }
    }
    exit($status);
}
