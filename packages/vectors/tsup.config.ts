import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  // import.meta.url locates data/ at run time; tsup shims it in the CJS build.
  shims: true,
});
