import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // cli.ts is the `licence` bin; its source starts with `#!/usr/bin/env node`, which esbuild keeps
  // (one config for both entries: two configs would race on `clean`).
  entry: ['src/index.ts', 'src/cli.ts'],
  dts: { entry: 'src/index.ts' },
});
