/**
 * Prints the size of each built file of the console, raw and gzipped (level 9, as a server would
 * compress it), and the totals: the figures docs/protocol.md#console states. Run the build first.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dir = fileURLToPath(new URL('../dist/assets/', import.meta.url));
const names = (await readdir(dir)).sort();
const rows = [];
for (const name of names) {
  const bytes = await readFile(join(dir, name));
  rows.push([name, bytes.length, gzipSync(bytes, { level: 9 }).length]);
}
rows.push(['total', rows.reduce((sum, r) => sum + r[1], 0), rows.reduce((sum, r) => sum + r[2], 0)]);

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'file'.padEnd(width)}  ${'raw'.padStart(18)}  ${'gzip'.padStart(18)}`);
for (const [name, raw, gzip] of rows) {
  console.log(
    `${name.padEnd(width)}  ${`${raw} B (${kb(raw)})`.padStart(18)}  ${`${gzip} B (${kb(gzip)})`.padStart(18)}`,
  );
}
