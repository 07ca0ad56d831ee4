import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The JSON report lets .ci/run print one plain "N passed, N failed" line for the whole suite.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
