// Prints one plain line for the whole suite, "N passed, N failed" (", N skipped" when any), from
// the JSON reports vitest writes in each package (test-results.json). Reports older than the run
// are ignored, so a package that did not run cannot lend its old counts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const since = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of ['packages', 'apps', 'tooling']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const file = join(group, name, 'test-results.json');
    if (!existsSync(file) || statSync(file).mtimeMs < since) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
