// @ts-check
// `pnpm bench` in apps/lambda (a report, not a test). Prints one table:
// - the bundle's size (dist/lambda/index.mjs, built here by scripts/bundle.mjs);
// - cold start: a fresh node process loads the bundle and answers its first event, store connection
//   and first queries included (BENCH_COLD samples, default 15), on a throwaway PostgreSQL on
//   loopback whose schema is already migrated (a function's first-ever start also migrates: shown
//   apart, once);
// - warm invocation: the Lambda handler around a service beside that service's own handling of the
//   same request (the adapter's overhead, paired per round), the bundle's own handler, the Koa
//   server over loopback HTTP (bench/warm-child.mjs), and the adapter's own steps timed alone.
// Targets: bundle < 1 MB, cold start < 300 ms, warm overhead over the service < 0.2 ms.
// Needs `pnpm build` first (turbo's bench task depends on it) and PostgreSQL's binaries (without
// them only the size is printed).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isRecord } from '@licence/core';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { loadSignatureVectors } from '@licence/vectors';
import { createJsonLogger, createLambdaHandler } from '../dist/index.js';
import { bundleLambda } from '../scripts/bundle.mjs';

const COLD_SAMPLES = Number(process.env.BENCH_COLD ?? 15);
const here = (/** @type {string} */ name) => fileURLToPath(new URL(name, import.meta.url));

const { file: bundle, bytes } = await bundleLambda();
const binDir = await findPostgresBinDir();
if (binDir === null) {
  // As the Koa bench's PostgreSQL row: the rest of `pnpm bench` still runs.
  console.log(`\nlambda bench: bundle size ${(bytes / 1024).toFixed(1)} KiB (${bytes} B), target < 1 MB`);
  console.warn(
    'lambda bench: PostgreSQL binaries not found (install postgresql or set PG_BIN_DIR): cold start and warm rows SKIPPED',
  );
  process.exit(0);
}
const cluster = await startPostgres({ binDir });
try {
  const databaseUrl = await cluster.createDatabase();
  const env = {
    DATABASE_URL: databaseUrl,
    // TEST ONLY key of packages/vectors (signatures.json): a bench signs nothing real.
    LICENCE_SIGNING_KEY: loadSignatureVectors().keys.primary.seed,
    LICENCE_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'info',
  };

  // A product and a buyer key bound to bench.exemple.fr; `first` also migrates the empty database.
  const setup = createLambdaHandler({ env, logger: createJsonLogger({ level: 'silent' }) });
  /** @param {string} method @param {string} path @param {unknown} body @param {Record<string, string>} [extra] */
  const call = async (method, path, body, extra = {}) => {
    const result = await setup({
      version: '2.0',
      rawPath: path,
      headers: { 'content-type': 'application/json', 'user-agent': 'Bench/1.0', ...extra },
      requestContext: { http: { method, path, sourceIp: '192.0.2.1' }, stage: '$default' },
      body: JSON.stringify(body),
      isBase64Encoded: false,
    });
    if (!('statusCode' in result) || typeof result.body !== 'string' || (result.statusCode ?? 500) >= 300)
      throw new Error(`${path}: ${JSON.stringify(result)}`);
    return JSON.parse(result.body);
  };
  const admin = { authorization: `Bearer ${env.LICENCE_ADMIN_TOKEN}` };
  const firstStarted = performance.now();
  await call('POST', '/admin/products', { id: 'bench', author: 'bench', name: 'Bench' }, admin);
  const firstEver = performance.now() - firstStarted;
  const { cle } = await call('POST', '/admin/keys', { produit: 'bench', kind: 'buyer' }, admin);
  await call('POST', '/api/licence', { cle, url: 'https://www.bench.exemple.fr', produit: 'bench' });
  await setup.close();

  const verification = {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/api/licence',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'user-agent': 'Bench/1.0' },
    requestContext: { http: { method: 'POST', path: '/api/licence', sourceIp: '198.51.100.1' }, stage: '$default' },
    body: JSON.stringify({
      cle,
      url: 'https://www.bench.exemple.fr',
      produit: 'bench',
      nonce: 'bench-nonce-0123456789',
    }),
    isBase64Encoded: false,
  };

  /**
   * Runs a bench child; resolves its `${tag} {...}` line of stderr. Its stdout (the function's log
   * lines) goes to /dev/null: a pipe read by this process would make every log line wake it, and
   * on two cores that wake-up is measured as the child's time (on Lambda the log pipe is drained
   * by the runtime, not by a neighbour of the function).
   * @param {string} script @param {Record<string, string>} childEnv @param {string} tag
   * @returns {Promise<{ report: unknown, wallMs: number }>}
   */
  const child = (script, childEnv, tag) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const proc = spawn(process.execPath, [script], {
        env: { PATH: process.env.PATH ?? '', ...childEnv },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      /** @type {unknown} */
      let report;
      let wallMs = 0;
      proc.stderr.on('data', (chunk) => {
        stderr += String(chunk);
        // Only whole lines: a long report arrives in several chunks.
        const line = stderr
          .split('\n')
          .slice(0, -1)
          .find((candidate) => candidate.startsWith(`${tag} `));
        if (line !== undefined && report === undefined) {
          wallMs = performance.now() - started;
          report = JSON.parse(line.slice(tag.length + 1));
        }
      });
      proc.on('error', reject);
      proc.on('close', (code) =>
        code === 0 && report !== undefined
          ? resolve({ report, wallMs })
          : reject(new Error(`${script} exited ${code}: ${stderr}`)),
      );
    });

  const coldEnv = { ...env, BUNDLE: bundle, EVENT: JSON.stringify(verification) };
  /** @type {{ load: number, first: number, total: number, wall: number, boot: number }[]} */
  const colds = [];
  for (let i = 0; i < COLD_SAMPLES; i += 1) {
    const { report, wallMs } = await child(here('cold-child.mjs'), coldEnv, 'COLD');
    const cold = coldReport(report);
    colds.push({
      load: cold.load,
      first: cold.first,
      total: cold.load + cold.first,
      wall: wallMs,
      boot: cold.sinceProcessStart,
    });
  }

  const warm = warmReport((await child(here('warm-child.mjs'), { ...env, BUNDLE: bundle, CLE: cle }, 'RESULT')).report);

  /** @param {number[]} values @param {number} q */
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  };
  /** @param {number} value */
  const ms = (value) => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
  /** @param {number[]} values */
  const spread = (values) =>
    `${ms(quantile(values, 0.5))} (min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))})`;
  /** @param {number[]} values */
  const spreadOf = (values) => `p10 ${ms(quantile(values, 0.1))}, p90 ${ms(quantile(values, 0.9))}`;
  /** @param {number[]} values */
  const latency = (values) => `${ms(quantile(values, 0.5))} (p90 ${ms(quantile(values, 0.9))}, n=${values.length})`;
  const pick = (/** @type {'load' | 'first' | 'total' | 'wall' | 'boot'} */ field) =>
    colds.map((sample) => sample[field]);
  const overhead = quantile(warm.roundOverheads, 0.5);

  const rows = [
    [
      'bundle size (dist/lambda/index.mjs)',
      `${(bytes / 1024).toFixed(1)} KiB (${bytes} B)`,
      '< 1 MB',
      bytes < 1024 * 1024,
    ],
    [
      `cold start: load bundle -> first answer, median of ${COLD_SAMPLES}`,
      spread(pick('total')),
      '< 300 ms',
      quantile(pick('total'), 0.5) < 300,
    ],
    ['  import the bundle', spread(pick('load')), '', null],
    ['  first invocation (config, pool, connect, queries, sign)', spread(pick('first')), '', null],
    ['  (node start before the import, not counted)', spread(pick('boot')), '', null],
    ['  process spawn -> first answer (wall, all included)', spread(pick('wall')), '', null],
    ['first-ever invocation on an empty database (migrations)', ms(firstEver), '', null],
    ['warm: service.handle alone (no adapter)', latency(warm.samples.service), '', null],
    ['warm: Lambda handler around that same service', latency(warm.samples.adapter), '', null],
    [
      'warm: adapter overhead (paired per round, median)',
      `${ms(overhead)} (rounds: ${spreadOf(warm.roundOverheads)})`,
      '< 0.2 ms',
      overhead < 0.2,
    ],
    [
      '  adapter steps alone + its log line (no database)',
      `${warm.stepsMicros.toFixed(2)} us`,
      '< 0.2 ms',
      warm.stepsMicros < 200,
    ],
    ['warm: the bundle handler (own pool, from the env)', latency(warm.samples.lambda), '', null],
    ['warm: Koa server over loopback HTTP (same request)', latency(warm.samples.koa), '', null],
  ];
  const width = Math.max(...rows.map((row) => String(row[0]).length));
  const valueWidth = Math.max(...rows.map((row) => String(row[1]).length));
  console.log(
    `\nlambda bench: Node ${process.version}, ${cpus().length} cores, PostgreSQL (throwaway, loopback, fsync off); the bench, its node processes and PostgreSQL share this machine\n`,
  );
  console.log(`${'measure'.padEnd(width)}  ${'value'.padEnd(valueWidth)}  target`);
  console.log(`${'-'.repeat(width)}  ${'-'.repeat(valueWidth)}  ------`);
  for (const [name, value, target, met] of rows) {
    console.log(
      `${String(name).padEnd(width)}  ${String(value).padEnd(valueWidth)}  ${target}${met === null ? '' : met ? ' (met)' : ' (MISSED)'}`,
    );
  }
} finally {
  await cluster.stop();
}

/** @param {unknown} value @returns {number[]} */
function numbers(value) {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number'))
    throw new Error(`expected numbers, got ${JSON.stringify(value)}`);
  return value;
}

/** What cold-child.mjs reports; a start that did not answer 200 stops the bench. @param {unknown} report */
function coldReport(report) {
  if (!isRecord(report) || report.status !== 200) throw new Error(`cold start: ${JSON.stringify(report)}`);
  const [load = 0, first = 0, sinceProcessStart = 0] = numbers([report.load, report.first, report.sinceProcessStart]);
  return { load, first, sinceProcessStart };
}

/** What warm-child.mjs reports; any answer but 200 stops the bench. @param {unknown} report */
function warmReport(report) {
  if (!isRecord(report) || !isRecord(report.samples) || typeof report.stepsMicros !== 'number')
    throw new Error(`warm: ${JSON.stringify(report)}`);
  if (JSON.stringify(report.statuses) !== '[200]')
    throw new Error(`warm requests answered ${JSON.stringify(report.statuses)}`);
  const { samples } = report;
  return {
    samples: {
      service: numbers(samples.service),
      adapter: numbers(samples.adapter),
      lambda: numbers(samples.lambda),
      koa: numbers(samples.koa),
    },
    roundOverheads: numbers(report.roundOverheads),
    stepsMicros: report.stepsMicros,
  };
}
