<?php
/**
 * The real service for the end-to-end tests: `node apps/koa-server/dist/cli.js serve` on
 * 127.0.0.1 (PORT=0: the system picks a free port, read back from the start-up line), a fresh
 * LICENCE_DATA_DIR (SQLite), a known LICENCE_ADMIN_TOKEN and LICENCE_SIGNING_KEY = the TEST ONLY
 * seed of packages/vectors/cases/signatures.json (apps/koa-server/src/config.ts,
 * docs/protocol.md#configuration).
 * Its JSON log on stdout gives the address ("licence service started") and is the request log the
 * tests count calls with (one "request" line per request, written before the answer is sent). Stopped at the end of the
 * run whatever happens (Harness::onExit).
 */

final class LicenceServer
{
    public string $url = '';
    public readonly string $adminToken;
    /** @var resource */
    private $process;
    private readonly string $logFile;
    private readonly string $errorFile;
    private bool $stopped = false;

    private function __construct(private readonly string $dir)
    {
        $this->adminToken = bin2hex(random_bytes(32));
        $this->logFile = $dir . '/stdout.log';
        $this->errorFile = $dir . '/stderr.log';
    }

    /** Spawns the server; call waitReady() before using it (so that several can boot at once). */
    public static function spawn(): self
    {
        $cli = repoRoot() . '/apps/koa-server/dist/cli.js';
        if (!is_file($cli)) {
            throw new RuntimeException("{$cli} is missing: build it first (pnpm --filter @licence/koa-server build; pnpm test does it through turbo)");
        }
        $server = new self(tempDir('licence-server-'));
        $env = getenv();
        foreach (['DATABASE_URL', 'LICENCE_SIGNING_KEY_FILE', 'TRUST_PROXY'] as $name) {
            unset($env[$name]);
        }
        $env = array_merge($env, [
            'HOST' => '127.0.0.1',
            'PORT' => '0',
            'LICENCE_DATA_DIR' => $server->dir . '/data',
            'LICENCE_ADMIN_TOKEN' => $server->adminToken,
            // TEST ONLY (signatures.json): public on purpose, never used for real data.
            'LICENCE_SIGNING_KEY' => vectorFile('signatures')->keys->primary->seed,
            'LOG_LEVEL' => 'info',
        ]);
        $process = proc_open(['node', $cli, 'serve'], [
            0 => ['file', '/dev/null', 'r'],
            1 => ['file', $server->logFile, 'w'],
            2 => ['file', $server->errorFile, 'w'],
        ], $pipes, repoRoot(), $env);
        if (!is_resource($process)) {
            throw new RuntimeException('cannot start node');
        }
        $server->process = $process;
        Harness::onExit(static fn () => $server->stop());
        return $server;
    }

    public function waitReady(float $seconds = 40.0): void
    {
        $deadline = microtime(true) + $seconds;
        while (microtime(true) < $deadline) {
            $log = (string) @file_get_contents($this->logFile);
            foreach (explode("\n", $log) as $line) {
                $entry = json_decode($line, true);
                if (is_array($entry) && ($entry['msg'] ?? null) === 'licence service started' && is_string($entry['url'] ?? null)) {
                    $this->url = $entry['url'];
                    return;
                }
            }
            if (!proc_get_status($this->process)['running']) {
                throw new RuntimeException('the server stopped at start: ' . @file_get_contents($this->errorFile) . $log);
            }
            usleep(20000);
        }
        throw new RuntimeException("the server did not start within {$seconds} s");
    }

    /** SIGTERM (the CLI shuts down cleanly), then SIGKILL if it lingers. */
    public function stop(): void
    {
        if ($this->stopped) {
            return;
        }
        $this->stopped = true;
        stopProcess($this->process);
    }

    /** How many requests reached POST /api/licence (or /api/license), from the server's own request log. */
    public function licenceRequests(): int
    {
        $count = 0;
        foreach (file($this->logFile) ?: [] as $line) {
            $entry = json_decode($line, true);
            if (is_array($entry) && ($entry['msg'] ?? null) === 'request' && in_array($entry['route'] ?? null, ['/api/licence', '/api/license'], true)) {
                $count++;
            }
        }
        return $count;
    }

    /** @return array{0: int, 1: mixed} status and decoded body */
    public function admin(string $method, string $path, ?array $body = null): array
    {
        return httpJson($method, $this->url . $path, $body, ['Authorization: Bearer ' . $this->adminToken]);
    }

    public function addProduct(string $id): void
    {
        [$status] = $this->admin('POST', '/admin/products', ['id' => $id, 'author' => 'atelier', 'name' => $id]);
        assertSame(201, $status, "POST /admin/products {$id}");
    }

    /** A new buyer key (its text only lives in this test run). */
    public function issueKey(string $produit): string
    {
        [$status, $body] = $this->admin('POST', '/admin/keys', ['produit' => $produit, 'kind' => 'buyer']);
        assertSame(201, $status, 'POST /admin/keys');
        return $body['cle'];
    }

    public function revoke(string $cle): void
    {
        [$status] = $this->admin('POST', '/admin/keys/' . rawurlencode($cle) . '/revoke', ['reason' => 'end-to-end test']);
        assertSame(200, $status, 'revoke');
    }

    /** @return string the new key */
    public function transfer(string $cle, string $from, string $to): string
    {
        [$status, $body] = $this->admin('POST', '/admin/keys/' . rawurlencode($cle) . '/transfer', ['from' => $from, 'to' => $to]);
        assertSame(201, $status, 'transfer (a new key is created)');
        return $body['cle'];
    }
}

/** @return array{0: int, 1: mixed, 2: array<string, string>} status, decoded body, lower-cased headers */
function httpJson(string $method, string $url, ?array $body, array $headers = [], string $userAgent = 'LicencePhpTests/1.0'): array
{
    $h = curl_init($url);
    $responseHeaders = [];
    curl_setopt_array($h, [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_USERAGENT => $userAgent,
        CURLOPT_HTTPHEADER => array_merge(['Content-Type: application/json'], $headers),
        CURLOPT_TIMEOUT => 20,
        CURLOPT_HEADERFUNCTION => static function ($h, string $line) use (&$responseHeaders): int {
            $parts = explode(':', $line, 2);
            if (count($parts) === 2) {
                $responseHeaders[strtolower(trim($parts[0]))] = trim($parts[1]);
            }
            return strlen($line);
        },
    ]);
    if ($body !== null) {
        curl_setopt($h, CURLOPT_POSTFIELDS, json_encode($body));
    }
    $text = curl_exec($h);
    if ($text === false) {
        throw new RuntimeException("{$method} {$url}: " . curl_error($h));
    }
    $status = curl_getinfo($h, CURLINFO_HTTP_CODE);
    return [$status, json_decode($text, true), $responseHeaders];
}

/** Ends a child process started with proc_open (by its own handle, never by name). */
function stopProcess($process): void
{
    if (!is_resource($process)) {
        return;
    }
    $status = proc_get_status($process);
    if ($status['running']) {
        proc_terminate($process, 15);
        $deadline = microtime(true) + 5;
        while (microtime(true) < $deadline && proc_get_status($process)['running']) {
            usleep(20000);
        }
        if (proc_get_status($process)['running']) {
            proc_terminate($process, 9);
        }
    }
    proc_close($process);
}

/**
 * A fake service on loopback (lib/fake-service.php), a real HTTP server: "drop" accepts and
 * closes (a crashed service), "replay" answers a fixed body, "slow" answers after a pause.
 */
final class FakeService
{
    public string $url;
    private string $countFile;
    /** @var resource */
    private $process;

    public function __construct(string $mode, string $argument = '')
    {
        $dir = tempDir('licence-fake-');
        $portFile = $dir . '/port';
        $this->countFile = $dir . '/count';
        $env = array_merge(getenv(), ['LICENCE_TEST_SEED' => vectorFile('signatures')->keys->primary->seed]);
        $this->process = proc_open([PHP_BINARY, __DIR__ . '/fake-service.php', $mode, $portFile, $this->countFile, $argument], [
            0 => ['file', '/dev/null', 'r'],
            1 => ['file', $dir . '/stdout.log', 'w'],
            2 => ['file', $dir . '/stderr.log', 'w'],
        ], $pipes, null, $env);
        $process = $this->process;
        Harness::onExit(static fn () => stopProcess($process));
        $deadline = microtime(true) + 10;
        while (!is_file($portFile)) {
            if (microtime(true) > $deadline || !proc_get_status($this->process)['running']) {
                throw new RuntimeException("the fake service ({$mode}) did not start: " . @file_get_contents($dir . '/stderr.log'));
            }
            usleep(10000);
        }
        $this->url = 'http://127.0.0.1:' . trim(file_get_contents($portFile));
    }

    /** Connections accepted so far. */
    public function connections(): int
    {
        return is_file($this->countFile) ? substr_count((string) file_get_contents($this->countFile), "\n") : 0;
    }

    public function stop(): void
    {
        stopProcess($this->process);
    }
}

/** A loopback port nothing listens on (bound, then closed): connection refused. */
function closedPort(): string
{
    $socket = stream_socket_server('tcp://127.0.0.1:0');
    $name = stream_socket_get_name($socket, false);
    fclose($socket);
    return 'http://' . $name;
}
