import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  // expectHttpCase asserts with the CALLER's vitest (a devDependency here, so tsup would bundle
  // it otherwise): one vitest instance per test run, or its `expect` would not report failures.
  external: ['vitest'],
});
