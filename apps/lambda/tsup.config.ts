import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // index.ts: the adapter as a library (createLambdaHandler, the three steps, the local runner).
  // local-cli.ts: `pnpm local`, the handler on this machine. The function's own single-file
  // bundle is esbuild's (scripts/bundle.mjs), run by `build` after this.
  entry: ['src/index.ts', 'src/local-cli.ts'],
  dts: { entry: 'src/index.ts' },
});
