// One benchmarked server, run by bench/run.mjs under `taskset -c 0`: `koa` is the real service
// (Koa + @licence/service + the SQLite store seeded by run.mjs), `koa-postgres` the same service
// on PostgreSQL with its shared rate limiter (the second argument is then the database
// URL), `bare` is the baseline: node:http that only parses the body and signs a fixed verdict
// with node:crypto, and `koa-ceiling` the same signing behind Koa + @koa/router +
// @koa/bodyparser (what Koa itself costs). Prints "listening <port>" once it accepts connections. The Koa kinds run the
// webhook deliverer in process, as `licence serve` does; `koa-webhook` and `koa-webhook-ok` also
// have one endpoint, for every event, at the URL of the fourth argument (a receiver that never
// answers, or one that answers at once).
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { createServer } from 'node:http';

const [kind, dataLocation, seedBase64, webhookUrl] = process.argv.slice(2);
const seed = Buffer.from(seedBase64, 'base64');

// The fixed verdict that `bare` and `koa-ceiling` sign, and their key.
const key = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const donnees = {
  domaine: 'exemple.fr',
  emis: 1795342440,
  essai: false,
  hote: 'exemple.fr',
  motif: '',
  ok: true,
  quand: '',
  revalider: 1795428840,
  sursis: 2592000,
};
const canonical = Buffer.from(JSON.stringify(donnees));

let handler;
if (kind === 'koa-ceiling') {
  // What Koa itself costs, the ecosystem's way: @koa/router, @koa/bodyparser, one POST route that
  // parses the JSON body and signs the fixed verdict, the same headers as `bare`. The service's
  // row against this one is what the adapter and the service add beyond Koa.
  const { default: Koa } = await import('koa');
  const { Router } = await import('@koa/router');
  const { bodyParser } = await import('@koa/bodyparser');
  const app = new Koa();
  const router = new Router();
  router.post('/api/licence', (ctx) => {
    if (typeof ctx.request.body !== 'object' || ctx.request.body === null) ctx.throw(400);
    ctx.set('cache-control', 'no-store');
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ donnees, signature: sign(null, canonical, key).toString('base64') });
  });
  app.use(bodyParser({ enableTypes: ['json'] }));
  app.use(router.routes());
  handler = app.callback();
} else if (kind === 'bare') {
  handler = (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const body = JSON.stringify({ donnees, signature: sign(null, canonical, key).toString('base64') });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
    });
  };
} else {
  const { createService, createMemoryRateLimiter, createNodeSigner, createWebhookDeliverer, WEBHOOK_EVENT_TYPES } =
    await import('@licence/service');
  const { createApp } = await import('../dist/index.js');
  const silent = { debug() {}, info() {}, warn() {}, error: (fields, message) => console.error(message, fields) };
  let store;
  let rateLimiter;
  if (kind === 'koa-postgres') {
    // What `licence serve` runs with DATABASE_URL (open-runtime.ts): the store and the shared
    // rate limiter on one pool, with the default pool size and timeouts.
    const { openPostgres } = await import('@licence/store-postgres');
    ({ store, rateLimiter } = await openPostgres({ connectionString: dataLocation, logger: silent }));
  } else {
    const { openSqliteStore } = await import('@licence/store-sqlite');
    store = openSqliteStore({ file: dataLocation, backgroundCheckpoints: true });
    rateLimiter = createMemoryRateLimiter();
  }
  const clock = { now: () => Date.now() };
  const service = createService({
    store,
    rateLimiter,
    clock,
    signer: createNodeSigner(seed),
    logger: silent,
    random: (n) => randomBytes(n),
    trustProxy: { hops: 1 },
  });
  handler = createApp({ service, logger: silent }).callback();
  if (kind.startsWith('koa-webhook')) {
    await store.addWebhookEndpoint({
      id: 'wh_bench',
      author: null,
      url: webhookUrl,
      events: WEBHOOK_EVENT_TYPES,
      createdAt: Math.floor(Date.now() / 1000),
      secret: `whsec_${randomBytes(32).toString('base64')}`,
    });
  }
  createWebhookDeliverer({ store, clock, logger: silent, allowPrivate: true }).start();
}

const server = createServer(handler);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
