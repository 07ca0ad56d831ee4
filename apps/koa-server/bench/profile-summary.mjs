// `node bench/profile-summary.mjs <file.cpuprofile> [requests]`: what a server of `pnpm bench`
// spent its CPU on (BENCH_PROFILE=1 writes the profiles to bench/profiles/). Self time by
// category (signing, SQLite, the service, core, Koa, Node's http...) and the busiest functions,
// as shares of the busy time (idle left out) and, given the requests the server answered while
// profiled (the rounds' total plus the 2 s warm-up), in µs per request. A native frame (no file)
// is charged to its nearest JavaScript caller: better-sqlite3's statements to the store.
import { readFileSync } from 'node:fs';

const [file, requestsArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [requests]');
  process.exit(2);
}
const requests = requestsArg === undefined ? undefined : Number(requestsArg);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const selfTime = new Map();
for (const [i, id] of profile.samples.entries())
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));

const CATEGORIES = [
  ['idle', (frame) => frame.functionName === '(idle)'],
  ['garbage collector', (frame) => frame.functionName === '(garbage collector)'],
  ['Ed25519 signing (node:crypto)', (frame) => frame.url.includes('crypto/sig')],
  ['SHA-256 of the key (node:crypto)', (frame) => frame.url.includes('crypto/hash')],
  ['random bytes (event ids)', (frame) => frame.url.includes('crypto/random')],
  ['SQLite (store-sqlite + better-sqlite3)', (frame) => /store-sqlite|better-sqlite3/.test(frame.url)],
  ['@licence/service', (frame) => frame.url.includes('packages/service/')],
  ['@licence/core', (frame) => frame.url.includes('packages/core/')],
  ['tldts (public suffix list)', (frame) => frame.url.includes('tldts')],
  ['the adapter (apps/koa-server)', (frame) => frame.url.includes('apps/koa-server/dist')],
  ['Node: http, streams, events, net', (frame) => frame.url.startsWith('node:')],
  ['other native (writev, program)', (frame) => frame.url === ''],
  ['Koa and other packages', (frame) => frame.url.includes('node_modules')],
  ['other JavaScript (the bench server)', () => true],
];

/** The frame a sample is charged to: itself, or for a native frame its nearest JavaScript caller. */
function chargedFrame(id) {
  const frame = nodes.get(id).callFrame;
  if (frame.url !== '' || /^\((idle|garbage collector|program)\)$/.test(frame.functionName)) return frame;
  for (let parent = parents.get(id); parent !== undefined; parent = parents.get(parent)) {
    const caller = nodes.get(parent).callFrame;
    if (caller.url !== '') return caller;
  }
  return frame;
}

const shortUrl = (url) =>
  url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*$/, '$1').replace(/^.*\/(packages|apps)\//, '$1/');
const byCategory = new Map(CATEGORIES.map(([name]) => [name, 0]));
const byFunction = new Map();
for (const [id, time] of selfTime) {
  const frame = chargedFrame(id);
  const [category] = CATEGORIES.find(([, test]) => test(frame));
  byCategory.set(category, byCategory.get(category) + time);
  if (category === 'idle') continue;
  const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
}
const busy = [...byCategory].filter(([name]) => name !== 'idle').reduce((sum, [, time]) => sum + time, 0);
const perRequest = (time) => (requests === undefined ? '' : `${(time / requests).toFixed(1).padStart(6)} µs  `);
console.log(
  `${file.split('/').pop()}: ${(busy / 1e6).toFixed(2)} s busy${requests === undefined ? '' : `, ${(busy / requests).toFixed(0)} µs per request`}`,
);
function show(entries, count) {
  for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${perRequest(time)}${((100 * time) / busy).toFixed(1).padStart(5)}%  ${name}`);
}
show(
  [...byCategory].filter(([name, time]) => name !== 'idle' && time > 0),
  CATEGORIES.length,
);
console.log('busiest functions:');
show(byFunction, 25);
