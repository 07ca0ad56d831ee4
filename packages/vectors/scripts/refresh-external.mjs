// Refreshes the third-party test data in external/ from upstream, or checks it.
//
//   node scripts/refresh-external.mjs           download every file of external/sources.json from
//                                               its raw URL (the pinned commit), check its git blob
//                                               id, and write it; a file whose bytes differ from
//                                               the manifest is not written
//   node scripts/refresh-external.mjs --check   no network: check the local files' blob ids against
//                                               the manifest (and that every data file is listed)
//
// Exits non-zero naming every file at fault. Plain Node ESM, no dependencies (global fetch).
// To move a file to a newer upstream commit, change its commit, url and blob in sources.json
// (blob: `git rev-parse <commit>:<path>` in a clone of the repository), then run without --check.
// See external/README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkLocalFiles, EXTERNAL_DIR, gitBlobId, readManifest } from './external-manifest.mjs';

const TIMEOUT_MS = 30_000;

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  console.error(
    `refresh-external: unknown argument ${unknown.join(' ')} (usage: node scripts/refresh-external.mjs [--check])`,
  );
  process.exit(2);
}

if (args.includes('--check')) {
  const problems = checkLocalFiles(EXTERNAL_DIR);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`MISMATCH ${problem}`);
    console.error(`refresh-external --check: ${problems.length} problem(s) in ${EXTERNAL_DIR}`);
    process.exit(1);
  }
  console.log(`refresh-external --check: all ${readManifest(EXTERNAL_DIR).length} files match sources.json`);
  process.exit(0);
}

/**
 * Downloads one entry and writes it when its blob id is the manifest's.
 * @param {import('./external-manifest.mjs').ExternalSource} entry
 * @returns {Promise<string | null>} the problem, or null when written
 */
async function refresh(entry) {
  let bytes;
  try {
    const response = await fetch(entry.url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    if (!response.ok) return `${entry.file}: HTTP ${response.status} from ${entry.url}`;
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    const reason =
      error instanceof Error
        ? error.name === 'TimeoutError'
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : describe(error)
        : String(error);
    return `${entry.file}: download failed (${reason}) from ${entry.url}`;
  }
  const blob = gitBlobId(bytes);
  if (blob !== entry.blob)
    return `${entry.file}: downloaded git blob ${blob}, manifest says ${entry.blob}; not written (${entry.url})`;
  const target = join(EXTERNAL_DIR, entry.file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  return null;
}

/** fetch's TypeError says only "fetch failed"; its cause names the network error. */
function describe(error) {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

const entries = readManifest(EXTERNAL_DIR);
const results = await Promise.all(entries.map((entry) => refresh(entry)));
let failures = 0;
results.forEach((problem, index) => {
  if (problem === null) {
    console.log(`ok ${entries[index]?.file ?? ''}`);
  } else {
    failures += 1;
    console.error(`FAILED ${problem}`);
  }
});
if (failures > 0) {
  const written = entries.length - failures;
  console.error(
    `refresh-external: ${failures} of ${entries.length} files failed${written > 0 ? `; the other ${written} were written` : ''}`,
  );
  process.exit(1);
}
console.log(`refresh-external: ${entries.length} files written, each with the manifest's git blob id`);
