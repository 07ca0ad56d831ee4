import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // Keep `node:crypto`: the bare `crypto` name could resolve to a userland package.
  removeNodeProtocol: false,
});
