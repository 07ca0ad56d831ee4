// Prints one plain line, "LABEL: N passed, N failed" (", N skipped" when any), from the JSON
// reports vitest (and the PHP runner) write in each package (test-results.json). Reports older
// than the run are ignored, so a package that did not run cannot lend its old counts.
// Usage: node .ci/summary.mjs LABEL STARTED_MS COUNTS_FILE. Each run appends its counts to
// COUNTS_FILE; the label `total` reads that file instead and prints the sum of every run.
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [label = 'tests', startedArg = '0', countsFile] = process.argv.slice(2);

function runCounts(since) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const group of ['packages', 'apps', 'tooling']) {
    if (!existsSync(group)) continue;
    for (const name of readdirSync(group)) {
      const file = join(group, name, 'test-results.json');
      if (!existsSync(file) || statSync(file).mtimeMs < since) continue;
      const report = JSON.parse(readFileSync(file, 'utf8'));
      counts.passed += report.numPassedTests;
      counts.failed += report.numFailedTests;
      counts.skipped += report.numPendingTests + report.numTodoTests;
    }
  }
  return counts;
}

function totalCounts(file) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const run = JSON.parse(line);
    for (const k of Object.keys(total)) total[k] += run[k];
  }
  return total;
}

const counts = label === 'total' ? totalCounts(countsFile) : runCounts(Number(startedArg));
if (label !== 'total' && countsFile) appendFileSync(countsFile, `${JSON.stringify(counts)}\n`);
const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed${skipped}`);
// A run that counted nothing ran no test: that is a failure too.
if (counts.passed + counts.failed === 0) process.exitCode = 1;
