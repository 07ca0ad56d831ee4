import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

export default defineConfig({
  test: {
    ...packageTests,
    // The CLI tests spawn `node dist/cli.js`: build it from the current sources first.
    globalSetup: ['test/build-dist.ts'],
    // Child processes and real SQLite files: slower than pure tests, never timed (CONTRIBUTING.md#testing).
    hookTimeout: 30_000,
  },
});
