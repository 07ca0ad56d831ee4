import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

export default defineConfig({
  test: {
    ...packageTests,
    // The bundle test and the template test read dist/lambda/index.mjs: build it from the current
    // sources first, so the suite never depends on a manual build step (CONTRIBUTING.md#testing).
    globalSetup: ['test/build-bundle.ts'],
    // Real PostgreSQL clusters and child processes: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    hookTimeout: 60_000,
  },
});
