<?php
/**
 * The PHP client's test files, in run order: the ONE list that test/run.php (Debian's PHP, with
 * sodium, intl, curl, php-parser and a licence server) and test/matrix.php (every PHP line 7.2 to
 * 8.5 through php-wasm: no sodium, no intl, no child process) both read. Add a new file here.
 *
 * The value says where the file runs besides Debian's PHP:
 * - true: on every php-wasm line too. The file (and what it requires) must then be PHP 7.2 syntax
 *   (no arrow function, no `mixed`...), and a test needing sodium calls requires('sodium');
 * - '8.0' (a PHP version): on the php-wasm lines from that one up (its syntax needs it);
 * - any other string: the reason it runs on Debian's PHP only.
 */

return [
    'php56-syntax-test.php' => "needs Debian's php-parser (one PHP is enough to parse the file)",
    'keys-test.php' => true,
    'canonical-test.php' => true,
    'hosts-test.php' => true,
    'staging-test.php' => true,
    'signatures-test.php' => true,
    'client-states-test.php' => true,
    'messages-test.php' => true,
    'ed25519-test.php' => true,
    'licence-test.php' => 'signs its verdicts with sodium, and starts child processes',
    'end-to-end-test.php' => 'needs a licence server (node) and child PHP processes',
    // PHP 8.0 syntax (arrow functions, `mixed`), and from 8.1 matrix.php loads lib/server.php
    // (readonly) for its closedPort(): without it, 8.0's calls wait out their 2 s timeout on
    // php-wasm (+25 s). Its child-process cases skip themselves without proc_open.
    'environment-test.php' => '8.1',
    // Last: it makes failed stream requests on purpose, after which php-wasm 8.2+'s flock lies for
    // the rest of the process (docs/protocol.md#refresh-lock).
    'refresh-lock-test.php' => true,
];
