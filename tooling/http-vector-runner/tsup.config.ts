import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // expectHttpCase asserts with the CALLER's vitest (a devDependency here, so tsup would bundle
  // it otherwise): one vitest instance per test run, or its `expect` would not report failures.
  external: ['vitest'],
});
