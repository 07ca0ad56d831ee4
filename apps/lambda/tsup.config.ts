import { defineConfig } from 'tsup';

export default defineConfig({
  // index.ts: the adapter as a library (createLambdaHandler, the three steps, the local runner).
  // local-cli.ts: `pnpm local`, the handler on this machine. The function's own single-file
  // bundle is esbuild's (scripts/bundle.mjs), run by `build` after this.
  entry: ['src/index.ts', 'src/local-cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'es2022',
});
