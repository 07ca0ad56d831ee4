/**
 * The vitest `test` options every package runs with. A package's vitest.config.ts spreads them
 * and adds what is its own (a global setup, a longer hook timeout, coverage, benchmarks):
 *
 *   export default defineConfig({ test: { ...packageTests, hookTimeout: 30_000 } });
 *
 * Plain data, typed without importing vitest (this folder has no node_modules): vitest's
 * `defineConfig` checks the result in each package.
 */
export const packageTests: {
  readonly include: string[];
  readonly testTimeout: number;
  readonly reporters: ('default' | 'json')[];
  readonly outputFile: { readonly json: string };
} = {
  // Tests beside the code, and the suites that need a whole server or process in test/.
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  // A bound on a hung test, not a speed target: CI runs every package at once on two cores, where
  // property runs and real servers take several times their quiet-machine time.
  testTimeout: 30_000,
  // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite
  // (.ci/summary.mjs reads each package's test-results.json).
  reporters: ['default', 'json'],
  outputFile: { json: 'test-results.json' },
};
