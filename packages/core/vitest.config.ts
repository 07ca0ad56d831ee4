import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

export default defineConfig({
  resolve: {
    // Tests read the vectors package from source, so no build step is needed before `vitest`.
    alias: {
      '@licence/vectors': fileURLToPath(new URL('../vectors/src/index.ts', import.meta.url)),
    },
  },
  test: {
    ...packageTests,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/index.ts'],
      reporter: ['text', 'json-summary'],
      // Core line coverage must stay at or above 95%.
      thresholds: { lines: 95 },
    },
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
