import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The CLI tests spawn `node dist/cli.js`: build it from the current sources first.
    globalSetup: ['test/build-dist.ts'],
    // Child processes and real SQLite files: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
