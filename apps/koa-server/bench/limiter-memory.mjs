// Part b of `pnpm bench:limiter` (bench/limiter.mjs runs it with --expose-gc): the memory rate
// limiter of @licence/service against many distinct client addresses in one window
// (docs/protocol.md#rate-limit). For each size: the heap after one hit per address (after
// global.gc()), bytes per address, the time per hit and the longest single hit() call; then the
// sweep: the first hit() a window after the fill (the sweep walks every client and keeps them)
// and the first hit() two windows after (every client's window emptied), then the longest hit() of
// a window of new clients after that drop. Prints one JSON line.
import { performance } from 'node:perf_hooks';
import { formatIpv4 } from '@licence/core';
import { createMemoryRateLimiter } from '@licence/service';

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

const WINDOW_MS = 60_000;
const T0 = 1_800_000_000_000;
// 10.0.0.0 and up: a flat string per address, as the service writes it (formatIpv4).
const BASE = 10 * 2 ** 24;

function heapUsed() {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
}

/** One hit per address, spread over the first 50 s of the window; `each` hits per address. */
function fill(limiter, count, each) {
  let longest = 0;
  let refused = 0;
  const started = performance.now();
  for (let round = 0; round < each; round += 1) {
    for (let i = 0; i < count; i += 1) {
      const now = T0 + Math.floor((i * 50_000) / count) + round;
      const client = formatIpv4(BASE + i);
      const before = performance.now();
      limiter.hit(client, now).then((verdict) => {
        if (!verdict.allowed) refused += 1;
      });
      const took = performance.now() - before;
      if (took > longest) longest = took;
    }
  }
  const elapsed = performance.now() - started;
  return { elapsed, longest, refused };
}

/** The longest hit() of `count` new addresses from `start` on. */
function fillAfter(limiter, count, start) {
  let longest = 0;
  for (let i = 0; i < count; i += 1) {
    const client = formatIpv4(BASE + 2 ** 22 + i);
    const before = performance.now();
    limiter.hit(client, start + Math.floor((i * 50_000) / count));
    longest = Math.max(longest, performance.now() - before);
  }
  return longest;
}

/** The duration of one hit() call at `now` from a new address. */
function timedHit(limiter, now, i) {
  const client = formatIpv4(BASE + 2 ** 23 + i);
  const before = performance.now();
  limiter.hit(client, now);
  return performance.now() - before;
}

async function measure(count, each) {
  const baseline = heapUsed();
  // The addresses' strings alone, to say what the limiter adds on top of keeping them.
  const strings = Array.from({ length: count }, (_, i) => formatIpv4(BASE + i));
  const withStrings = heapUsed();
  strings.length = 0;
  const limiter = createMemoryRateLimiter({ windowMs: WINDOW_MS });
  const empty = heapUsed();
  const { elapsed, longest, refused } = fill(limiter, count, each);
  await new Promise((resolve) => setImmediate(resolve));
  const full = heapUsed();
  // The hits' own time, less formatIpv4's (measured alone over the same addresses).
  const formatStarted = performance.now();
  for (let round = 0; round < each; round += 1) for (let i = 0; i < count; i += 1) formatIpv4(BASE + i);
  const formatMs = performance.now() - formatStarted;
  const result = {
    addresses: count,
    hitsEach: each,
    refused,
    tracked: limiter.size(),
    heapBytes: full - empty,
    bytesPerAddress: Math.round((full - empty) / count),
    stringBytesPerAddress: Math.round((withStrings - baseline) / count),
    nsPerHit: Math.round(((elapsed - formatMs) * 1e6) / (count * each)),
    longestHitMs: round3(longest),
  };
  if (each === 1) {
    // A window after the first hit: the sweep is due and walks every client (none has emptied).
    result.sweepKeepMs = round3(timedHit(limiter, T0 + WINDOW_MS, 0));
    result.trackedAfterKeep = limiter.size();
    // Two windows after: every client's window has emptied.
    result.sweepDropMs = round3(timedHit(limiter, T0 + 2 * WINDOW_MS, 1));
    result.trackedAfterDrop = limiter.size();
    // The dropped clients are garbage now: the longest hit() of a window of new clients after it
    // (whatever collection the drop causes lands there).
    result.longestAfterDropMs = round3(fillAfter(limiter, count, T0 + 2 * WINDOW_MS + 1));
    result.heapAfterDrop = heapUsed() - empty;
  }
  return result;
}

const round3 = (ms) => Math.round(ms * 1000) / 1000;

const sizes = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number);
const results = [];
for (const size of sizes) results.push(await measure(size, 1));
results.push(await measure(sizes[0], 30));
console.log(JSON.stringify({ memory: results }));
