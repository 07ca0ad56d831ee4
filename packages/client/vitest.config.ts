import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The multi-process tests run `node` on the built client: build dist from the sources first.
    globalSetup: ['test/build-dist.ts'],
    // Real servers, files and child processes: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
    benchmark: {
      include: ['bench/**/*.bench.ts'],
    },
  },
});
