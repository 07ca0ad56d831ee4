import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A bound on a hung test, not a speed target: CI runs every package at once on two cores, where
    // property runs and real servers take several times their quiet-machine time.
    testTimeout: 30_000,
    include: ['src/**/*.test.ts'],
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
