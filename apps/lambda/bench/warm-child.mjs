// @ts-check
// The warm comparison (bench/run.mjs runs this in its own process; the function's log lines go to
// /dev/null): the same verification request through
//   service  service.handle on PostgreSQL, without any adapter (the floor),
//   adapter  createLambdaHandler({ service }) around THAT SAME service: the adapter and nothing else
//            differs (event -> request -> service -> result, and its log line on stdout),
//   lambda   the bundle's own handler, configured from the environment (its own pool and copy),
//   koa      the Koa server (createApp) over loopback HTTP with a keep-alive agent,
// interleaved in blocks whose order turns each round, so that drift (a neighbour's load,
// PostgreSQL's autovacuum) hits all four alike.
// Each request comes from its own address, so the rate limit (30 per minute per client) never
// answers instead of the verdict. Prints one RESULT line on stderr.
import { randomBytes } from 'node:crypto';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { decodeBase64 } from '@licence/core';
import { createApp, createLogger } from '@licence/koa-server';
import { createNodeSigner, createService } from '@licence/service';
import { openPostgres } from '@licence/store-postgres';
import {
  classifyEvent,
  createJsonLogger,
  createLambdaHandler,
  toLambdaResult,
  toServiceRequest,
} from '../dist/index.js';

const env = process.env;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 40);
const BLOCK = Number(env.BENCH_BLOCK ?? 50);
const body = JSON.stringify({
  cle: env.CLE,
  url: 'https://www.bench.exemple.fr',
  produit: 'bench',
  nonce: 'bench-nonce-0123456789',
});
const headers = { 'content-type': 'application/json', 'user-agent': 'Bench/1.0' };

let counter = 0;
/** A fresh client address per request: 10.x.y.z. */
const nextIp = () => {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
};

/** @param {string} ip */
const event = (ip) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/api/licence',
  rawQueryString: '',
  headers,
  requestContext: {
    accountId: 'bench',
    apiId: 'bench',
    domainName: 'bench',
    domainPrefix: 'bench',
    http: { method: 'POST', path: '/api/licence', protocol: 'HTTP/1.1', sourceIp: ip, userAgent: 'Bench/1.0' },
    requestId: 'bench',
    routeKey: '$default',
    stage: '$default',
    time: '',
    timeEpoch: 0,
  },
  body,
  isBase64Encoded: false,
});

// B: the real bundle, configured from the environment like on AWS.
const { handler } = await import(env.BUNDLE ?? '');

/**
 * A service on its own pool of two connections to the bench database, signing with the bench key,
 * and the pool (closed at the end).
 * @param {import('@licence/service').Logger} logger
 * @param {{ hops: number }} [trustProxy]
 */
async function pooledService(logger, trustProxy) {
  const backend = await openPostgres({ connectionString: env.DATABASE_URL ?? '', logger, pool: { max: 2 } });
  const service = createService({
    store: backend.store,
    rateLimiter: backend.rateLimiter,
    clock: { now: Date.now },
    signer: createNodeSigner(decodeBase64(env.LICENCE_SIGNING_KEY, 'seed', 32)),
    logger,
    random: (length) => new Uint8Array(randomBytes(length)),
    ...(trustProxy === undefined ? {} : { trustProxy }),
  });
  return { service, backend };
}

// A: the service alone, on its own pool of the same size on the same database.
const silent = createJsonLogger({ level: 'silent' });
const { service, backend } = await pooledService(silent);
const bytes = new Uint8Array(Buffer.from(body));

// C: the Koa server on the same kind of service; X-Forwarded-For carries the address (TRUST_PROXY=1).
const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const koaLogger = createLogger({ level: 'info', destination: discard });
const { service: koaService, backend: koaBackend } = await pooledService(koaLogger, { hops: 1 });
const server = createServer(createApp({ service: koaService, logger: koaLogger }).callback());
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const address = server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** @param {string} ip @returns {Promise<number>} */
const koaCall = (ip) =>
  new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/licence',
        agent,
        headers: { ...headers, 'x-forwarded-for': ip, 'content-length': String(bytes.length) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(bytes);
  });

// The adapter around the very same service, logging its request line to stdout like the bundle.
const adapter = createLambdaHandler({ service, logger: createJsonLogger({ level: 'info' }) });

/** @typedef {'service' | 'adapter' | 'lambda' | 'koa'} Variant */
/** @type {Record<Variant, number[]>} */
const samples = { service: [], adapter: [], lambda: [], koa: [] };
/** Per round, the adapter's median minus the service's: a paired difference, robust to drift. @type {number[]} */
const roundOverheads = [];
const statuses = new Set();
/** @type {Record<Variant, () => Promise<number>>} */
const variants = {
  service: async () =>
    (await service.handle({ method: 'POST', path: '/api/licence', headers, body: bytes, ip: nextIp() })).status,
  adapter: async () => {
    const result = await adapter(event(nextIp()), { awsRequestId: 'warm' });
    return 'statusCode' in result ? (result.statusCode ?? 0) : 0;
  },
  lambda: async () => (await handler(event(nextIp()), { awsRequestId: 'warm' })).statusCode,
  koa: () => koaCall(nextIp()),
};
/** @type {Variant[]} */
const names = ['service', 'adapter', 'lambda', 'koa'];
/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
// Warm-up: the first calls open pools and JIT-compile; they are not counted.
for (const name of names) for (let i = 0; i < 50; i += 1) statuses.add(await variants[name]());
for (let round = 0; round < ROUNDS; round += 1) {
  /** @type {Record<Variant, number[]>} */
  const block = { service: [], adapter: [], lambda: [], koa: [] };
  for (let turn = 0; turn < names.length; turn += 1) {
    const name = names[(round + turn) % names.length] ?? 'service';
    for (let i = 0; i < BLOCK; i += 1) {
      const started = performance.now();
      statuses.add(await variants[name]());
      block[name].push(performance.now() - started);
    }
  }
  for (const name of names) samples[name].push(...block[name]);
  roundOverheads.push(median(block.adapter) - median(block.service));
}

// The adapter's own steps on one event and one answer, without the service or a database.
const classified = classifyEvent(event('10.0.0.1'));
if (classified === null) throw new Error('the bench event is not an HTTP event');
const answer = await service.handle(toServiceRequest(classified));
const STEPS = 200_000;
const stepLogger = createJsonLogger({ level: 'info', write: () => undefined });
let sink = 0;
const stepsStarted = performance.now();
for (let i = 0; i < STEPS; i += 1) {
  const each = classifyEvent(event('10.0.0.1'));
  if (each === null) continue;
  const request = toServiceRequest(each);
  const result = toLambdaResult(each, answer);
  stepLogger.info(
    { method: request.method, route: '/api/licence', status: result.statusCode, ms: 0.5, requestId: 'warm' },
    'request',
  );
  sink += request.path.length + (result.statusCode ?? 0);
}
const stepsMicros = ((performance.now() - stepsStarted) * 1000) / STEPS;
if (sink === 0) throw new Error('the adapter steps did nothing');

process.stderr.write(`RESULT ${JSON.stringify({ samples, roundOverheads, statuses: [...statuses], stepsMicros })}\n`);
agent.destroy();
await new Promise((resolve) => server.close(() => resolve(undefined)));
await handler.close();
await backend.close();
await koaBackend.close();
