import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageTests } from '../../tooling/build-config/package-tests';

// The service's tests run on the memory store, which is a package of its own that depends on this
// one: they take its source, and it takes this source, so that one copy of each module runs and
// no build of either is needed first (tsconfig.json's `paths` say the same to tsc).
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@licence/service': source('./src/index.ts'),
      '@licence/store-memory': source('../store-memory/src/index.ts'),
    },
  },
  test: packageTests,
});
