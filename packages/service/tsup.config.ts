import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // `./testing` is its own entry so that the main entry never imports vitest (an optional peer).
  entry: ['src/index.ts', 'src/testing/index.ts'],
  external: ['vitest'],
  // Keep `node:crypto`: the bare `crypto` name could resolve to a userland package.
  removeNodeProtocol: false,
});
