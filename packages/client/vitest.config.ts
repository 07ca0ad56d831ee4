import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

export default defineConfig({
  test: {
    ...packageTests,
    // The multi-process tests run `node` on the built client: build dist from the sources first.
    globalSetup: ['test/build-dist.ts'],
    // Real servers, files and child processes: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    hookTimeout: 30_000,
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
