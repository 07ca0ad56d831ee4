// The WAL file after a burst (docs/protocol.md#storage): one million request-log writes through the
// store with its checkpoint thread (what `licence serve` opens), 500 in flight and no pause, then
// the WAL file's size 1, 2, 3, 5 and 10 s after the last write. A report, not a test; after
// `pnpm build`: `pnpm --filter @licence/store-sqlite bench:wal` (BENCH_WRITES for another count).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqliteStore } from '../dist/index.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 1_000_000);
const IN_FLIGHT = 500;
const folder = mkdtempSync(join(tmpdir(), 'licence-wal-burst-'));
const file = join(folder, 'licence.db');
const store = openSqliteStore({ file, backgroundCheckpoints: true });
const walMb = () => {
  try {
    return statSync(`${file}-wal`).size / 1e6;
  } catch {
    return 0;
  }
};

let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, walMb());
}, 50);
let next = 0;
async function lane() {
  while (next < WRITES) {
    const n = next++;
    await store.logRequest({
      at: 1_795_000_000 + (n % 1000),
      keyId: null,
      host: `h${n % 5000}.example`,
      ip: `192.0.2.${n % 250}`,
      outcome: 'inconnue',
      produit: null,
    });
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
const seconds = (performance.now() - started) / 1000;
peak = Math.max(peak, walMb());
console.log(
  `wal-burst: ${WRITES} writes in ${seconds.toFixed(1)} s; WAL ${walMb().toFixed(1)} MB at the end, peak ${peak.toFixed(1)} MB`,
);
let waited = 0;
for (const at of [1, 2, 3, 5, 10]) {
  await sleep((at - waited) * 1000);
  waited = at;
  console.log(`wal-burst: +${at} s: WAL ${walMb().toFixed(1)} MB`);
}
clearInterval(sampler);
await store.close();
rmSync(folder, { recursive: true, force: true });
