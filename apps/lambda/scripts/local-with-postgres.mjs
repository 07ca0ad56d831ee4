// `pnpm --filter @licence/lambda local:pg`: the local runner on a throwaway PostgreSQL, in one
// command. It starts a cluster (@licence/pg-cluster: initdb + pg_ctl on loopback, a free port, a
// fresh temporary folder), makes a signing key for this session only, serves the Lambda handler
// over HTTP as `pnpm local` does (src/local-cli.ts), and on Ctrl-C or SIGTERM stops the runner,
// the pool and the cluster, whose folder is then removed. Nothing outlives the session.
//
// The seed is never printed nor written anywhere: it lives in this process's memory, handed to the
// handler's environment object (not to process.env). Only its public key is printed. The admin
// API is on only when LICENCE_ADMIN_TOKEN is set in your environment (never printed either); without
// it, manage products and keys with the `licence` CLI and the DATABASE_URL printed below.
// HOST and PORT as for `pnpm local` (127.0.0.1:8080); TRUST_PROXY and LOG_LEVEL pass through.
// Needs the build (`pnpm --filter @licence/lambda... build`) and the PostgreSQL server binaries.
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { errorMessage } from '@licence/core';

const distIndex = new URL('../dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(distIndex))) {
  process.stderr.write('local:pg: apps/lambda/dist is missing: run `pnpm --filter @licence/lambda... build` first\n');
  process.exit(1);
}
/** @type {typeof import('../dist/index.js')} */
const lambda = await import(distIndex.href);

const port = Number(process.env.PORT ?? '8080');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT: expected an integer 0..65535, got "${process.env.PORT ?? ''}"\n`);
  process.exit(1);
}
const binDir = await findPostgresBinDir();
if (binDir === null) {
  process.stderr.write(
    'local:pg: PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql or set PG_BIN_DIR\n',
  );
  process.exit(1);
}

/**
 * The public key (base64) of an Ed25519 seed, with node:crypto: the seed is wrapped in its PKCS#8
 * form (RFC 8410), the last 32 bytes of the SPKI encoding are the public key.
 * @param {Buffer} seed 32 bytes
 */
function publicKeyOf(seed) {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const spki = createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({
    format: 'der',
    type: 'spki',
  });
  return spki.subarray(spki.length - 32).toString('base64');
}

const seed = randomBytes(32);
const publicKey = publicKeyOf(seed);
const logger = lambda.createJsonLogger({ level: lambda.startLogLevel(process.env) });

process.stderr.write('local:pg: starting a throwaway PostgreSQL cluster...\n');
const cluster = await startPostgres({ binDir });

/** @type {Record<string, string | undefined>} */
const env = { ...process.env, DATABASE_URL: cluster.url, LICENCE_SIGNING_KEY: seed.toString('base64') };
// This session's key, not a file the caller's environment may name (both at once is an error).
delete env.LICENCE_SIGNING_KEY_FILE;
const handler = lambda.createLambdaHandler({ env, logger });

/** @type {Awaited<ReturnType<typeof lambda.startLocalRunner>> | undefined} */
let runner;
try {
  runner = await lambda.startLocalRunner({ handler, host: process.env.HOST ?? '127.0.0.1', port, logger });
} catch (error) {
  process.stderr.write(`local:pg: the local runner could not start: ${errorMessage(error)}\n`);
  await handler.close();
  await cluster.stop();
  process.exit(1);
}

const adminOn = (process.env.LICENCE_ADMIN_TOKEN ?? '') !== '';
process.stderr.write(
  [
    `licence Lambda handler (local runner, HTTP API v2 events) at ${runner.url}`,
    `DATABASE_URL=${cluster.url}   (throwaway cluster, trust auth on 127.0.0.1; removed on exit)`,
    `public key (base64, of a signing key made for this session only): ${publicKey}`,
    adminOn
      ? 'admin API: on (LICENCE_ADMIN_TOKEN from your environment)'
      : 'admin API: off (set LICENCE_ADMIN_TOKEN to turn it on, or use `licence` with the DATABASE_URL above)',
    'Ctrl-C stops the runner and the cluster.',
    '',
  ].join('\n'),
);

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  if (stopping) {
    // A second signal: leave now; pg-cluster's exit hook still stops the server and removes its folder.
    process.exit(1);
  }
  stopping = true;
  process.stderr.write(`local:pg: ${signal}: stopping the runner and the cluster\n`);
  let failed = false;
  for (const [what, step] of /** @type {const} */ ([
    ['runner', () => runner?.close()],
    ['pool', () => handler.close()],
    ['cluster', () => cluster.stop()],
  ])) {
    try {
      await step();
    } catch (error) {
      failed = true;
      process.stderr.write(`local:pg: stopping the ${what}: ${errorMessage(error)}\n`);
    }
  }
  process.stderr.write(
    failed ? 'local:pg: stopped, with errors\n' : 'local:pg: stopped; the cluster and its folder are gone\n',
  );
  process.exit(failed ? 1 : 0);
}
process.on('SIGINT', (signal) => void stop(signal));
process.on('SIGTERM', (signal) => void stop(signal));
