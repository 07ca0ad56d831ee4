import { defineConfig } from 'tsup';

export default defineConfig({
  // cli.ts is the `licence` bin; its source starts with `#!/usr/bin/env node`, which esbuild keeps
  // (one config for both entries: two configs would race on `clean`).
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'es2022',
});
