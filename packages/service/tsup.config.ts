import { defineConfig } from 'tsup';

export default defineConfig({
  // `./testing` is its own entry so that the main entry never imports vitest (an optional peer).
  entry: ['src/index.ts', 'src/testing/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  external: ['vitest'],
  // Keep `node:crypto`: the bare `crypto` name could resolve to a userland package.
  removeNodeProtocol: false,
});
