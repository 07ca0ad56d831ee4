// The PHP client's vector tests on every PHP line 7.2 to 8.5, through php-wasm (real PHP
// interpreters compiled to WebAssembly, from npm: nothing to install in CI). Each line gets its own
// interpreter with the repository mounted at the same path (createNodeFsMountHandler: NODEFS, no
// copy), runs test/matrix.php (the files test/suite.php marks), and prints one line: the version the
// interpreter reports, passed / failed / skipped with the reason. php-wasm has no sodium and no
// intl: the pure-PHP verifier runs, and the Unicode hosts are refused with a clear message
// (docs/protocol.md#hosts-in-clients), counted apart. Any failure, on any line, exits 1.
//
//   node scripts/php-matrix.mjs [--bench] [7.4 8.5 ...]    (default: every line; --bench: bench/matrix.php)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeFsMountHandler, loadNodeRuntime } from '@php-wasm/node';
import { PHP } from '@php-wasm/universal';

export const LINES = ['7.2', '7.3', '7.4', '8.0', '8.1', '8.2', '8.3', '8.4', '8.5'];
export const REPO = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** A fresh interpreter for one line, with the repository (and `more` host folders) mounted at their own paths. */
export async function phpFor(line, more = []) {
  const php = new PHP(await loadNodeRuntime(line));
  for (const dir of [REPO, ...more]) await php.mount(dir, createNodeFsMountHandler(dir));
  return php;
}

/**
 * Runs a PHP file of the repository on one line; its output and exit code. The PHP code gets a
 * fresh host folder of its own in LICENCE_HOST_TMP: php-wasm's /tmp is in memory (MEMFS), and some
 * faults live only on a host folder mounted with NODEFS, as WordPress Playground mounts a site
 * (test/refresh-lock-test.php: flock after a failed stream request on 8.2 to 8.5).
 */
export async function runFile(line, path, env = {}) {
  const hostTmp = mkdtempSync(join(tmpdir(), `licence-matrix-${line}-`));
  const php = await phpFor(line, [hostTmp]);
  env = { LICENCE_HOST_TMP: hostTmp, ...env };
  // php-wasm's socket layer warns on every SO_REUSEADDR environment-test.php's loopback sockets
  // set ("Unsupported socket option"): noise, not a result.
  const warn = console.warn;
  const log = console.log;
  const quiet =
    (print) =>
    (...args) => {
      if (typeof args[0] === 'string' && args[0].startsWith('Unsupported socket option')) return;
      print(...args);
    };
  console.warn = quiet(warn);
  console.log = quiet(log);
  try {
    const response = await php.run({ scriptPath: path, env });
    return { text: response.text, errors: response.errors, exitCode: response.exitCode };
  } catch (error) {
    // A fatal error or exit(1) rejects with the response attached.
    const response = error?.response;
    if (response === undefined) throw error;
    return { text: response.text, errors: response.errors, exitCode: response.exitCode };
  } finally {
    console.warn = warn;
    console.log = log;
    php.exit();
    rmSync(hostTmp, { recursive: true, force: true });
  }
}

async function main(lines) {
  const entry = `${REPO}/packages/client-php/test/matrix.php`;
  let failed = false;
  const started = performance.now();
  // Two lines at a time (CI machines have 2 cores; each line is one busy thread), printed in order.
  const runs = new Map();
  let next = 0;
  const start = () => {
    if (next >= lines.length) return;
    const line = lines[next++];
    const t0 = performance.now();
    runs.set(
      line,
      runFile(line, entry).then((result) => {
        start();
        return { ...result, seconds: ((performance.now() - t0) / 1000).toFixed(1) };
      }),
    );
  };
  start();
  start();
  for (const line of lines) {
    const { text, errors, exitCode, seconds } = await runs.get(line);
    const last = text.trimEnd().split('\n').at(-1) ?? '';
    const summary = last.startsWith('MATRIX ') ? JSON.parse(last.slice('MATRIX '.length)) : null;
    if (summary === null || exitCode !== 0 || summary.failed !== 0 || summary.passed === 0) {
      failed = true;
      // The failures as the harness printed them (never a key: the vectors hold none).
      console.error(text.slice(-8000), errors);
    }
    if (summary === null) {
      console.log(`PHP ${line} (php-wasm): no summary, exit ${exitCode} (${seconds} s)`);
      continue;
    }
    const skipped = Object.entries(summary.skipped).map(([why, n]) => `${n} skipped (${why})`);
    const notRun = Object.entries(summary.notRun).map(([file, why]) => `${file} (${why})`);
    console.log(
      `PHP ${summary.php} (php-wasm ${line}, ${summary.intBits}-bit, sodium ${summary.sodium ? 'yes' : 'no'}, intl ${summary.intl ? 'yes' : 'no'}): ` +
        `${summary.passed} passed (of which ${summary.noIntl} Unicode hosts refused without intl), ${summary.failed} failed` +
        (skipped.length > 0 ? `, ${skipped.join(', ')}` : '') +
        ` (${seconds} s)` +
        (line === lines[0] && notRun.length > 0 ? `\n  not run on php-wasm: ${notRun.join('; ')}` : ''),
    );
  }
  console.log(`php-wasm matrix: ${lines.length} PHP lines in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return failed ? 1 : 0;
}

/**
 * A real `licence serve` on an ephemeral loopback port (as test/lib/server.php starts one), signing
 * with the TEST ONLY seed, with one product and one buyer key. The key lives only in this process.
 */
async function startServer() {
  const cli = `${REPO}/apps/koa-server/dist/cli.js`;
  const dir = mkdtempSync(join(tmpdir(), 'licence-bench-server-'));
  const adminToken = randomBytes(32).toString('hex');
  const { DATABASE_URL, LICENCE_SIGNING_KEY_FILE, TRUST_PROXY, ...env } = process.env;
  const signatures = JSON.parse(readFileSync(`${REPO}/packages/vectors/cases/signatures.json`, 'utf8'));
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: '0',
      LICENCE_DATA_DIR: `${dir}/data`,
      LICENCE_ADMIN_TOKEN: adminToken,
      // TEST ONLY (signatures.json): public on purpose, never used for real data.
      LICENCE_SIGNING_KEY: signatures.keys.primary.seed,
      LOG_LEVEL: 'info',
    },
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('licence serve did not start within 40 s')), 40_000);
    child.on('exit', (code) => reject(new Error(`licence serve stopped at start (exit ${code}): ${stderr}`)));
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        try {
          const entry = JSON.parse(line);
          if (entry.msg === 'licence service started' && typeof entry.url === 'string') {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {}
      }
    });
  }).catch((error) => {
    stop();
    throw error;
  });
  child.stdout.resume();
  const admin = async (path, body) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status}`);
    return response.json();
  };
  const product = 'bench-matrix';
  await admin('/admin/products', { id: product, author: 'atelier', name: product });
  const { cle } = await admin('/admin/keys', { produit: product, kind: 'buyer' });
  return { url, product, key: cle, stop };
}

/** `--bench`: bench/matrix.php on each line, one at a time (no other line competing), as a Markdown table. */
async function bench(lines) {
  const entry = `${REPO}/packages/client-php/bench/matrix.php`;
  const rows = [];
  for (const line of lines) {
    // One server per line: a line's 15 calls stay under the 30-a-minute rate limit.
    const server = await startServer();
    let result;
    try {
      result = await runFile(line, entry, {
        LICENCE_BENCH_URL: server.url,
        LICENCE_BENCH_PRODUCT: server.product,
        LICENCE_BENCH_KEY: server.key,
      });
    } finally {
      server.stop();
    }
    const { text, errors, exitCode } = result;
    const last = text.trimEnd().split('\n').at(-1) ?? '';
    if (exitCode !== 0 || !last.startsWith('BENCH ')) {
      console.error(`PHP ${line}: the benchmark failed (exit ${exitCode})\n${text.slice(-4000)}${errors}`);
      return 1;
    }
    const row = JSON.parse(last.slice('BENCH '.length));
    rows.push(
      `| ${row.php} | ${row.source}, ${row.verifier} | ${row.firstMs} ms | ${row.secondMs} ms | ${row.verifyMs} ms |`,
    );
    console.log(rows.at(-1));
  }
  console.log(
    [
      '',
      '| PHP (php-wasm) | verdict from, verifier | first `valide()`: call, check, write the cache | next instance: cache file, check | Ed25519 verify alone |',
      '| -------------- | ---------------------- | ---------------------------------------------- | -------------------------------- | -------------------- |',
      ...rows,
    ].join('\n'),
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const benchMode = process.argv.includes('--bench');
  const asked = process.argv.slice(2).filter((arg) => arg !== '--bench');
  const unknown = asked.filter((line) => !LINES.includes(line));
  if (unknown.length > 0) {
    console.error(`php-matrix: unknown PHP line(s) ${unknown.join(', ')}; known: ${LINES.join(', ')}`);
    process.exit(2);
  }
  // php-wasm keeps handles open after exit(): end the process explicitly.
  const lines = asked.length > 0 ? asked : LINES;
  process.exit(await (benchMode ? bench(lines) : main(lines)));
}
