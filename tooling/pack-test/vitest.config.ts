import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The repository's bound on a hung test (not a speed target). test/pack.test.ts raises it for
    // its own hooks and tests: packing and `npm install` take far longer than a pure test.
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
