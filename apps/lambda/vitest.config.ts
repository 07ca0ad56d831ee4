import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The bundle test and the template test read dist/lambda/index.mjs: build it from the current
    // sources first, so the suite never depends on a manual build step (CONTRIBUTING.md#testing).
    globalSetup: ['test/build-bundle.ts'],
    // Real PostgreSQL clusters and child processes: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
