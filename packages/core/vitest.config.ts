import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests read the vectors package from source, so no build step is needed before `vitest`.
    alias: {
      '@licence/vectors': fileURLToPath(new URL('../vectors/src/index.ts', import.meta.url)),
    },
  },
  test: {
    // A bound on a hung test, not a speed target: CI runs every package at once on two cores, where
    // property runs and real servers take several times their quiet-machine time.
    testTimeout: 30_000,
    include: ['src/**/*.test.ts'],
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/index.ts'],
      reporter: ['text', 'json-summary'],
      // Core line coverage must stay at or above 95%.
      thresholds: { lines: 95 },
    },
    benchmark: {
      include: ['bench/**/*.bench.ts'],
    },
  },
});
